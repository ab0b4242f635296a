/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-sweep-settings.c: the sweep settings as an object. */
#include "ms-sweep-settings.h"

#include "ms-enum-types.h"

struct _MsSweepSettings {
  GObject parent_instance;
  int ints[7]; /* in the order of int_names */
  MsRepsRule reps_rule;
  MsIssueOrder order;
  MsHostStores stores;
  char **modes;         /* as saved: the user's choice */
  gboolean gpu_present; /* FALSE: the GPU modes are off, their saved choice kept */
};

G_DEFINE_FINAL_TYPE (MsSweepSettings, ms_sweep_settings, G_TYPE_OBJECT)

/* The integer settings: property (and GSettings key), range, default. */
static const struct {
  const char *name;
  int min, max, def;
} int_props[] = {
  { "min-exp", 0, MS_MAX_EXPONENT, 10 }, { "max-exp", 0, MS_MAX_EXPONENT, 20 },
  { "step", 1, MS_MAX_EXPONENT, 1 },     { "reps", 1, MS_MAX_REPS, 10 },
  { "warmup", 0, 1000, 2 },              { "streams", 1, 64, 4 },
  { "reuse", 1, MS_MAX_REUSE, 1 },
};

enum {
  PROP_0,
  PROP_INT_FIRST,
  PROP_REPS_RULE = PROP_INT_FIRST + G_N_ELEMENTS (int_props),
  PROP_ORDER,
  PROP_HOST_STORES,
  PROP_MODES,
  PROP_GPU_PRESENT,
  N_PROPS
};
static GParamSpec *props[N_PROPS];

static void
set_int (MsSweepSettings *self, guint i, int value)
{
  if (self->ints[i] == value)
    return;
  self->ints[i] = value;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_INT_FIRST + i]);
}

#define SET_ENUM(field, value, prop)                                                           \
  G_STMT_START                                                                                 \
  {                                                                                            \
    if ((int) self->field != (value)) {                                                                     \
      self->field = (value);                                                                   \
      g_object_notify_by_pspec (object, props[prop]);                                          \
    }                                                                                          \
  }                                                                                            \
  G_STMT_END

static void
set_modes (MsSweepSettings *self, const char *const *modes)
{
  if (modes && self->modes && g_strv_equal (modes, (const char *const *) self->modes))
    return;
  g_strfreev (self->modes);
  self->modes = g_strdupv ((char **) modes);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MODES]);
}

/* Without a GPU the modes that need one are off, so that Run measures the
 * host baseline at once; the saved list keeps them for when a GPU is
 * back. The modes are read anew: "modes" is notified. */
static void
set_gpu_present (MsSweepSettings *self, gboolean present)
{
  if (present == self->gpu_present)
    return;
  self->gpu_present = present;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_GPU_PRESENT]);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MODES]);
}

static void
ms_sweep_settings_set_property (GObject *object, guint prop_id, const GValue *value,
                                GParamSpec *pspec)
{
  MsSweepSettings *self = MS_SWEEP_SETTINGS (object);
  if (prop_id >= PROP_INT_FIRST && prop_id < PROP_REPS_RULE) {
    set_int (self, prop_id - PROP_INT_FIRST, g_value_get_int (value));
    return;
  }
  switch (prop_id) {
  case PROP_REPS_RULE: SET_ENUM (reps_rule, g_value_get_enum (value), prop_id); break;
  case PROP_ORDER: SET_ENUM (order, g_value_get_enum (value), prop_id); break;
  case PROP_HOST_STORES: SET_ENUM (stores, g_value_get_enum (value), prop_id); break;
  case PROP_MODES: set_modes (self, g_value_get_boxed (value)); break;
  case PROP_GPU_PRESENT: set_gpu_present (self, g_value_get_boolean (value)); break;
  default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
ms_sweep_settings_get_property (GObject *object, guint prop_id, GValue *value,
                                GParamSpec *pspec)
{
  MsSweepSettings *self = MS_SWEEP_SETTINGS (object);
  if (prop_id >= PROP_INT_FIRST && prop_id < PROP_REPS_RULE) {
    g_value_set_int (value, self->ints[prop_id - PROP_INT_FIRST]);
    return;
  }
  switch (prop_id) {
  case PROP_REPS_RULE: g_value_set_enum (value, self->reps_rule); break;
  case PROP_ORDER: g_value_set_enum (value, self->order); break;
  case PROP_HOST_STORES: g_value_set_enum (value, self->stores); break;
  case PROP_MODES: g_value_set_boxed (value, self->modes); break;
  case PROP_GPU_PRESENT: g_value_set_boolean (value, self->gpu_present); break;
  default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
ms_sweep_settings_finalize (GObject *object)
{
  g_strfreev (MS_SWEEP_SETTINGS (object)->modes);
  G_OBJECT_CLASS (ms_sweep_settings_parent_class)->finalize (object);
}

static void
ms_sweep_settings_class_init (MsSweepSettingsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->set_property = ms_sweep_settings_set_property;
  object_class->get_property = ms_sweep_settings_get_property;
  object_class->finalize = ms_sweep_settings_finalize;

  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  for (guint i = 0; i < G_N_ELEMENTS (int_props); i++)
    props[PROP_INT_FIRST + i] = g_param_spec_int (int_props[i].name, NULL, NULL, int_props[i].min,
                                                  int_props[i].max, int_props[i].def, rw);
  /* Adaptive by default, as the command line's run. */
  props[PROP_REPS_RULE] = g_param_spec_enum ("reps-rule", NULL, NULL, MS_TYPE_REPS_RULE,
                                             MS_REPS_ADAPTIVE, rw);
  props[PROP_ORDER] = g_param_spec_enum ("order", NULL, NULL, MS_TYPE_ISSUE_ORDER,
                                         MS_ORDER_DEPTH_FIRST, rw);
  props[PROP_HOST_STORES] = g_param_spec_enum ("host-stores", NULL, NULL, MS_TYPE_HOST_STORES,
                                               MS_STORES_STREAMED, rw);
  props[PROP_MODES] = g_param_spec_boxed ("modes", NULL, NULL, G_TYPE_STRV, rw);
  props[PROP_GPU_PRESENT] = g_param_spec_boolean ("gpu-present", NULL, NULL, TRUE, rw);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
ms_sweep_settings_init (MsSweepSettings *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (int_props); i++)
    self->ints[i] = int_props[i].def;
  self->modes = g_new0 (char *, 1);
  self->reps_rule = MS_REPS_ADAPTIVE;
  self->gpu_present = TRUE;
}

MsSweepSettings *
ms_sweep_settings_new (GSettings *settings)
{
  MsSweepSettings *self = g_object_new (MS_TYPE_SWEEP_SETTINGS, NULL);
  if (!settings)
    return self;
  /* Every key with a property of its name; the enums by their nicks. */
  for (guint i = 0; i < G_N_ELEMENTS (int_props); i++)
    g_settings_bind (settings, int_props[i].name, self, int_props[i].name,
                     G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "order", self, "order", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "host-stores", self, "host-stores", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "modes", self, "modes", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "reps-rule", self, "reps-rule", G_SETTINGS_BIND_DEFAULT);
  return self;
}

static gboolean
mode_saved (MsSweepSettings *self, MsMode mode)
{
  return self->modes && g_strv_contains ((const char *const *) self->modes, ms_mode_name (mode));
}

gboolean
ms_sweep_settings_mode_available (MsSweepSettings *self, MsMode mode)
{
  g_return_val_if_fail (MS_IS_SWEEP_SETTINGS (self), FALSE);
  return self->gpu_present || !ms_mode_uses_gpu (mode);
}

gboolean
ms_sweep_settings_get_mode (MsSweepSettings *self, MsMode mode)
{
  g_return_val_if_fail (MS_IS_SWEEP_SETTINGS (self), FALSE);
  return mode_saved (self, mode) && ms_sweep_settings_mode_available (self, mode);
}

void
ms_sweep_settings_set_mode (MsSweepSettings *self, MsMode mode, gboolean on)
{
  g_return_if_fail (MS_IS_SWEEP_SETTINGS (self));
  if (on == mode_saved (self, mode))
    return;
  /* In the engine's order, whatever order the list had; modes off for want
   * of a GPU stay as saved. */
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (m == (int) mode ? on : mode_saved (self, m))
      g_strv_builder_add (builder, ms_mode_name (m));
  g_auto (GStrv) modes = g_strv_builder_end (builder);
  set_modes (self, (const char *const *) modes);
}

gboolean
ms_sweep_settings_get_sweep (MsSweepSettings *self, MsSweep *s, char *err, size_t err_size)
{
  g_return_val_if_fail (MS_IS_SWEEP_SETTINGS (self), FALSE);
  ms_sweep_init_default (s);
  s->min_exp = self->ints[0];
  s->max_exp = self->ints[1];
  s->step = self->ints[2];
  s->reps = self->ints[3];
  /* Adaptive: the count is the least taken, as the command line's --min-reps. */
  s->min_reps = self->ints[3];
  s->warmup = self->ints[4];
  s->streams = self->ints[5];
  /* R = 1 is the plain kernel: the reuse loop only from 2 on. */
  s->knobs.reuse = self->ints[6] > 1 ? self->ints[6] : 0;
  s->reps_rule = self->reps_rule;
  s->order = self->order;
  s->knobs.stores = self->stores;
  for (int m = 0; m < MS_MODE_COUNT; m++)
    s->modes[m] = ms_sweep_settings_get_mode (self, m);
  return ms_sweep_validate (s, err, err_size);
}
