/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-settings-pane.c: the settings pane. Every control is bound to its
 * GSettings key, so settings are saved as they change. */
#include "ms-settings-pane.h"

#include "ms-views.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ms-application.h"

typedef struct {
  struct _MsSettingsPane *pane;
  MsMode mode;
} ModeBinding;

struct _MsSettingsPane {
  GtkWidget parent_instance;
  GSettings *settings;
  ModeBinding mode_bindings[MS_MODE_COUNT];
  GtkCheckButton *mode_checks[MS_MODE_COUNT];

  /* Template children. */
  GtkSpinButton *min_exp_spin, *max_exp_spin, *step_spin, *reps_spin, *warmup_spin, *streams_spin,
    *reuse_spin;
  GtkLabel *min_exp_label, *max_exp_label, *sweep_summary;
  GtkDropDown *order_dropdown, *stores_dropdown;
  GtkBox *modes_box;
};

G_DEFINE_FINAL_TYPE (MsSettingsPane, ms_settings_pane, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_SUMMARY, N_PROPS };
static GParamSpec *props[N_PROPS];
enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

gboolean
ms_settings_pane_get_sweep (MsSettingsPane *self, MsSweep *s, char *err, size_t err_size)
{
  ms_sweep_init_default (s);
  s->min_exp = gtk_spin_button_get_value_as_int (self->min_exp_spin);
  s->max_exp = gtk_spin_button_get_value_as_int (self->max_exp_spin);
  s->step = gtk_spin_button_get_value_as_int (self->step_spin);
  s->reps = gtk_spin_button_get_value_as_int (self->reps_spin);
  /* The pane offers a fixed count; the adaptive rule is the command line's. */
  s->reps_rule = MS_REPS_FIXED;
  s->warmup = gtk_spin_button_get_value_as_int (self->warmup_spin);
  s->streams = gtk_spin_button_get_value_as_int (self->streams_spin);
  s->order = gtk_drop_down_get_selected (self->order_dropdown) == 1 ? MS_ORDER_BREADTH_FIRST
                                                                   : MS_ORDER_DEPTH_FIRST;
  /* R = 1 is the plain kernel: the reuse loop only from 2 on. */
  int reuse = gtk_spin_button_get_value_as_int (self->reuse_spin);
  s->knobs.reuse = reuse > 1 ? reuse : 0;
  s->knobs.stores = (MsHostStores) MIN (gtk_drop_down_get_selected (self->stores_dropdown),
                                        MS_STORES_COUNT - 1);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    s->modes[m] = self->mode_checks[m] && gtk_check_button_get_active (self->mode_checks[m]);
  return ms_sweep_validate (s, err, err_size);
}

const char *
ms_settings_pane_get_summary (MsSettingsPane *self)
{
  return gtk_label_get_text (self->sweep_summary);
}

static void
describe_exponent (GtkLabel *label, int e)
{
  char bytes[32];
  ms_format_bytes ((1ull << e) * sizeof (float), bytes, sizeof bytes);
  g_autofree char *n = g_strdup_printf ("%'llu", 1ull << e);
  g_autofree char *text = g_strdup_printf (_("2^%d = %s floats = %s per vector"), e, n, bytes);
  gtk_label_set_text (label, text);
}

static void
on_changed (MsSettingsPane *self)
{
  MsSweep s;
  char err[256] = "";
  describe_exponent (self->min_exp_label, gtk_spin_button_get_value_as_int (self->min_exp_spin));
  describe_exponent (self->max_exp_label, gtk_spin_button_get_value_as_int (self->max_exp_spin));
  g_autofree char *summary = NULL;
  if (ms_settings_pane_get_sweep (self, &s, err, sizeof err))
    summary = g_strdup_printf (_("%d sizes × %d modes = %d cells, %d timed runs each"),
                               ms_sweep_n_sizes (&s), ms_sweep_n_modes (&s),
                               ms_sweep_n_cells (&s), s.reps);
  if (g_strcmp0 (gtk_label_get_text (self->sweep_summary), summary ? summary : err) != 0) {
    gtk_label_set_text (self->sweep_summary, summary ? summary : err);
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SUMMARY]);
  }
  g_signal_emit (self, signals[CHANGED], 0);
}

/* A string key with choices <-> a drop-down's position: user data is the
 * NULL-terminated list of the choices in the drop-down's order. */
static gboolean
choice_from_setting (GValue *value, GVariant *variant, gpointer data)
{
  const char *const *choices = data;
  const char *text = g_variant_get_string (variant, NULL);
  for (guint i = 0; choices[i]; i++)
    if (g_str_equal (text, choices[i])) {
      g_value_set_uint (value, i);
      return TRUE;
    }
  g_value_set_uint (value, 0);
  return TRUE;
}

static GVariant *
choice_to_setting (const GValue *value, const GVariantType *type, gpointer data)
{
  const char *const *choices = data;
  guint i = g_value_get_uint (value);
  return g_variant_new_string (i < g_strv_length ((char **) choices) ? choices[i] : choices[0]);
}

/* "modes": one check button per mode, each in or out of the list. */
static gboolean
mode_from_setting (GValue *value, GVariant *variant, gpointer data)
{
  ModeBinding *b = data;
  g_autofree const char **modes = g_variant_get_strv (variant, NULL);
  g_value_set_boolean (value,
                       g_strv_contains ((const char *const *) modes, ms_mode_name (b->mode)));
  return TRUE;
}

static GVariant *
mode_to_setting (const GValue *value, const GVariantType *type, gpointer data)
{
  ModeBinding *b = data;
  g_auto (GStrv) old = g_settings_get_strv (b->pane->settings, "modes");
  GVariantBuilder builder;
  g_variant_builder_init (&builder, G_VARIANT_TYPE_STRING_ARRAY);
  /* In the engine's order, whatever order the key had. */
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    gboolean was = g_strv_contains ((const char *const *) old, ms_mode_name (m));
    gboolean on = m == (int) b->mode ? g_value_get_boolean (value) : was;
    if (on)
      g_variant_builder_add (&builder, "s", ms_mode_name (m));
  }
  return g_variant_builder_end (&builder);
}

static void
bind_settings (MsSettingsPane *self)
{
  static const struct { const char *key; gsize offset; } spins[] = {
    { "min-exp", G_STRUCT_OFFSET (MsSettingsPane, min_exp_spin) },
    { "max-exp", G_STRUCT_OFFSET (MsSettingsPane, max_exp_spin) },
    { "step", G_STRUCT_OFFSET (MsSettingsPane, step_spin) },
    { "reps", G_STRUCT_OFFSET (MsSettingsPane, reps_spin) },
    { "warmup", G_STRUCT_OFFSET (MsSettingsPane, warmup_spin) },
    { "streams", G_STRUCT_OFFSET (MsSettingsPane, streams_spin) },
    { "reuse", G_STRUCT_OFFSET (MsSettingsPane, reuse_spin) },
  };
  /* Values out of range (an edited dconf) are clamped by the adjustments
   * and then validated like any other input. */
  for (guint i = 0; i < G_N_ELEMENTS (spins); i++)
    g_settings_bind (self->settings, spins[i].key,
                     G_STRUCT_MEMBER (GtkSpinButton *, self, spins[i].offset), "value",
                     G_SETTINGS_BIND_DEFAULT);
  static const char *const orders[] = { "depth", "breadth", NULL };
  static const char *const stores[] = { "streamed", "ordinary", "fresh", NULL };
  g_settings_bind_with_mapping (self->settings, "order", self->order_dropdown, "selected",
                                G_SETTINGS_BIND_DEFAULT, choice_from_setting, choice_to_setting,
                                (gpointer) orders, NULL);
  g_settings_bind_with_mapping (self->settings, "host-stores", self->stores_dropdown, "selected",
                                G_SETTINGS_BIND_DEFAULT, choice_from_setting, choice_to_setting,
                                (gpointer) stores, NULL);
  for (int m = 0; m < MS_MODE_COUNT; m++)
    g_settings_bind_with_mapping (self->settings, "modes", self->mode_checks[m], "active",
                                  G_SETTINGS_BIND_DEFAULT, mode_from_setting, mode_to_setting,
                                  &self->mode_bindings[m], NULL);
}

static void
ms_settings_pane_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  if (prop_id == PROP_SUMMARY)
    g_value_set_string (value, ms_settings_pane_get_summary (MS_SETTINGS_PANE (object)));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
ms_settings_pane_dispose (GObject *object)
{
  MsSettingsPane *self = MS_SETTINGS_PANE (object);
  /* The bindings hold pointers into this object: undo them first. */
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (self->mode_checks[m])
      g_settings_unbind (self->mode_checks[m], "active");
  memset (self->mode_checks, 0, sizeof self->mode_checks);
  ms_widget_dispose_children (GTK_WIDGET (object), MS_TYPE_SETTINGS_PANE);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (ms_settings_pane_parent_class)->dispose (object);
}

/* Enter in a field runs the sweep with the value typed, as Ctrl+R would.
 * (GtkSpinButton::activate is GTK 4.14: the text inside emits it.) */
static void
on_spin_activate (MsSettingsPane *self, GtkText *text)
{
  GtkWidget *spin = gtk_widget_get_ancestor (GTK_WIDGET (text), GTK_TYPE_SPIN_BUTTON);
  gtk_spin_button_update (GTK_SPIN_BUTTON (spin));
  gtk_widget_activate_action (GTK_WIDGET (self), "win.run", NULL);
}

static void
ms_settings_pane_class_init (MsSettingsPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = ms_settings_pane_dispose;
  object_class->get_property = ms_settings_pane_get_property;

  props[PROP_SUMMARY] =
    g_param_spec_string ("summary", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/memsweep/Memsweep/ms-settings-pane.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, MsSettingsPane, name)
  CHILD (min_exp_spin);
  CHILD (max_exp_spin);
  CHILD (step_spin);
  CHILD (reps_spin);
  CHILD (warmup_spin);
  CHILD (streams_spin);
  CHILD (min_exp_label);
  CHILD (max_exp_label);
  CHILD (sweep_summary);
  CHILD (order_dropdown);
  CHILD (stores_dropdown);
  CHILD (reuse_spin);
  CHILD (modes_box);
#undef CHILD
  gtk_widget_class_bind_template_callback (widget_class, on_changed);
}

static void
ms_settings_pane_init (MsSettingsPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->settings = g_settings_new (MS_APPLICATION_ID);
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    GtkWidget *check = gtk_check_button_new_with_label (ms_mode_title (m));
    gtk_widget_set_tooltip_text (check, ms_mode_description (m));
    gtk_box_append (self->modes_box, check);
    self->mode_checks[m] = GTK_CHECK_BUTTON (check);
    self->mode_bindings[m] = (ModeBinding){ self, m };
    g_signal_connect_object (check, "toggled", G_CALLBACK (on_changed), self, G_CONNECT_SWAPPED);
  }
  bind_settings (self);
  GtkSpinButton *spins[] = { self->min_exp_spin, self->max_exp_spin, self->step_spin,
                             self->reps_spin,    self->warmup_spin,  self->streams_spin };
  for (guint i = 0; i < G_N_ELEMENTS (spins); i++)
    g_signal_connect_object (gtk_editable_get_delegate (GTK_EDITABLE (spins[i])), "activate",
                             G_CALLBACK (on_spin_activate), self, G_CONNECT_SWAPPED);
  on_changed (self);
}

GtkWidget *
ms_settings_pane_new (void)
{
  return g_object_new (MS_TYPE_SETTINGS_PANE, NULL);
}
