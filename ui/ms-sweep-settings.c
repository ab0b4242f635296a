/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-sweep-settings.c: the sweep settings as an object. */
#include "ms-sweep-settings.h"

#include <string.h>

#include "ms-engine.h"
#include "ms-setting-table.h"

/* One property per GSettings key of the engine's setting table
 * (engine/ms-setting-table.c), named by the key: ints and choices as int
 * (a choice's value is its enum's), the rest as double. */
#define MAX_KEYS 32

struct _MsSweepSettings {
  GObject parent_instance;
  double values[MAX_KEYS]; /* by key, in the order of key_settings */
  char **modes;            /* as saved: the user's choice */
  gboolean gpu_present;    /* FALSE: the GPU modes are off, their saved choice kept */
};

G_DEFINE_FINAL_TYPE (MsSweepSettings, ms_sweep_settings, G_TYPE_OBJECT)

enum { PROP_0, PROP_MODES, PROP_GPU_PRESENT, PROP_FIRST_KEY };
static GParamSpec *props[PROP_FIRST_KEY + MAX_KEYS];
/* The first setting of each key (reps and min-reps share "reps"). */
static const MsSetting *key_settings[MAX_KEYS];
static guint n_keys;

static int
key_index (const char *key)
{
  for (guint i = 0; key && i < n_keys; i++)
    if (strcmp (key_settings[i]->key, key) == 0)
      return (int) i;
  return -1;
}

static void
set_key_value (MsSweepSettings *self, guint i, double value)
{
  if (self->values[i] == value)
    return;
  self->values[i] = value;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_FIRST_KEY + i]);
}

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
  if (prop_id >= PROP_FIRST_KEY && prop_id < PROP_FIRST_KEY + n_keys) {
    set_key_value (self, prop_id - PROP_FIRST_KEY,
                   G_VALUE_HOLDS_INT (value) ? g_value_get_int (value)
                                             : g_value_get_double (value));
    return;
  }
  switch (prop_id) {
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
  if (prop_id >= PROP_FIRST_KEY && prop_id < PROP_FIRST_KEY + n_keys) {
    double v = self->values[prop_id - PROP_FIRST_KEY];
    if (G_VALUE_HOLDS_INT (value))
      g_value_set_int (value, (int) v);
    else
      g_value_set_double (value, v);
    return;
  }
  switch (prop_id) {
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

static GParamSpec *
key_pspec (const MsSetting *setting)
{
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  switch (setting->kind) {
  case MS_SETTING_DOUBLE:
    return g_param_spec_double (setting->key, NULL, NULL, setting->min, setting->max,
                                setting->def, rw);
  case MS_SETTING_CHOICE:
    return g_param_spec_int (setting->key, NULL, NULL, 0, ms_setting_n_choices (setting) - 1,
                             (int) setting->def, rw);
  default:
    return g_param_spec_int (setting->key, NULL, NULL, (int) setting->min, (int) setting->max,
                             (int) setting->def, rw);
  }
}

static void
ms_sweep_settings_class_init (MsSweepSettingsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->set_property = ms_sweep_settings_set_property;
  object_class->get_property = ms_sweep_settings_get_property;
  object_class->finalize = ms_sweep_settings_finalize;

  props[PROP_MODES] = g_param_spec_boxed ("modes", NULL, NULL, G_TYPE_STRV,
                                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                            G_PARAM_STATIC_STRINGS);
  props[PROP_GPU_PRESENT] =
    g_param_spec_boolean ("gpu-present", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  for (int i = 0; i < ms_setting_count (); i++) {
    const MsSetting *setting = ms_setting_nth (i);
    if (!setting->key || setting->kind == MS_SETTING_MODES || key_index (setting->key) >= 0)
      continue;
    g_assert (n_keys < MAX_KEYS);
    key_settings[n_keys] = setting;
    props[PROP_FIRST_KEY + n_keys] = key_pspec (setting);
    n_keys++;
  }
  g_object_class_install_properties (object_class, PROP_FIRST_KEY + n_keys, props);
}

static void
ms_sweep_settings_init (MsSweepSettings *self)
{
  for (guint i = 0; i < n_keys; i++)
    self->values[i] = key_settings[i]->def;
  self->modes = g_new0 (char *, 1);
  self->gpu_present = TRUE;
}

/* A choice's key holds its name; the property, its value. */
static gboolean
choice_from_key (GValue *value, GVariant *variant, gpointer setting)
{
  int choice = ms_setting_choice (setting, g_variant_get_string (variant, NULL));
  if (choice < 0)
    return FALSE;
  g_value_set_int (value, choice);
  return TRUE;
}

static GVariant *
choice_to_key (const GValue *value, const GVariantType *type, gpointer setting)
{
  const MsSetting *s = setting;
  int choice = g_value_get_int (value);
  if (choice < 0 || choice >= ms_setting_n_choices (s))
    return NULL;
  return g_variant_new_string (s->choices[choice]);
}

MsSweepSettings *
ms_sweep_settings_new (GSettings *settings)
{
  MsSweepSettings *self = g_object_new (MS_TYPE_SWEEP_SETTINGS, NULL);
  if (!settings)
    return self;
  /* Every key with a property of its name. */
  for (guint i = 0; i < n_keys; i++) {
    const MsSetting *setting = key_settings[i];
    if (setting->kind == MS_SETTING_CHOICE)
      g_settings_bind_with_mapping (settings, setting->key, self, setting->key,
                                    G_SETTINGS_BIND_DEFAULT, choice_from_key, choice_to_key,
                                    (gpointer) setting, NULL);
    else
      g_settings_bind (settings, setting->key, self, setting->key, G_SETTINGS_BIND_DEFAULT);
  }
  g_settings_bind (settings, "modes", self, "modes", G_SETTINGS_BIND_DEFAULT);
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

/* Whether mode is among the modes ticked and this machine can run it. */
static gboolean
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
  /* Each setting from its key: the count "reps" is both the fixed count
   * and the adaptive rule's least. */
  for (int i = 0; i < ms_setting_count (); i++) {
    const MsSetting *setting = ms_setting_nth (i);
    int key = key_index (setting->key);
    if (key < 0)
      continue;
    /* R = 1 is the plain kernel: the reuse loop only from 2 on. */
    if (setting->default_is_off && self->values[key] == setting->def)
      continue;
    ms_setting_set (setting, s, self->values[key]);
  }
  for (int m = 0; m < MS_MODE_COUNT; m++)
    s->modes[m] = ms_sweep_settings_get_mode (self, m);
  return ms_sweep_validate (s, err, err_size);
}
