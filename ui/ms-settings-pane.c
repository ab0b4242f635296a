/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-settings-pane.c: the settings pane. Every control is bound to its
 * GSettings key, so settings are saved as they change. */
#include "ms-settings-pane.h"

#include "ms-views.h"

#include <glib/gi18n.h>
#include <string.h>

#include <math.h>

#include "ms-config.h"
#include "ms-engine.h"
#include "ms-enum-types.h"
#include "ms-props.h"
#include "ms-setting-table.h"

#define MAX_CONTROLS 32

/* A control and the setting (engine/ms-setting-table.c) it shows. */
typedef struct {
  const MsSetting *setting;
  GtkWidget *widget; /* a GtkSpinButton or a GtkDropDown */
} Control;

struct _MsSettingsPane {
  GtkWidget parent_instance;
  MsSweepSettings *sweep_settings;
  GBindingGroup *bindings; /* the controls to the settings above */
  GtkCheckButton *mode_checks[MS_MODE_COUNT];
  Control controls[MAX_CONTROLS];
  guint n_controls;

  /* Template children. */
  GtkSpinButton *min_exp_spin, *max_exp_spin, *step_spin, *reps_spin, *warmup_spin, *streams_spin,
    *reuse_spin;
  GtkLabel *min_exp_label, *max_exp_label, *sweep_summary, *reps_label;
  GtkDropDown *order_dropdown, *stores_dropdown;
  GtkCheckButton *fixed_reps_check;
  GtkGrid *timing_grid;
  GtkBox *modes_box;
};

G_DEFINE_FINAL_TYPE (MsSettingsPane, ms_settings_pane, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_SUMMARY, PROP_SWEEP_SETTINGS, N_PROPS };
static GParamSpec *props[N_PROPS];
enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

const char *
ms_settings_pane_get_summary (MsSettingsPane *self)
{
  return gtk_label_get_text (self->sweep_summary);
}

static void
describe_exponent (GtkLabel *label, int e)
{
  char bytes[32];
  ms_format_bytes (ms_exponent_bytes (e), bytes, sizeof bytes);
  g_autofree char *n = g_strdup_printf ("%'llu", 1ull << e);
  g_autofree char *text = g_strdup_printf (_("2^%d = %s floats = %s per vector"), e, n, bytes);
  gtk_label_set_text (label, text);
}

static void
on_changed (MsSettingsPane *self)
{
  MsSweep s;
  char err[256] = "";
  gboolean valid = ms_sweep_settings_get_sweep (self->sweep_settings, &s, err, sizeof err);
  describe_exponent (self->min_exp_label, s.min_exp);
  describe_exponent (self->max_exp_label, s.max_exp);
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    gboolean available = ms_sweep_settings_mode_available (self->sweep_settings, m);
    gtk_check_button_set_active (self->mode_checks[m], s.modes[m]);
    gtk_widget_set_sensitive (GTK_WIDGET (self->mode_checks[m]), available);
    g_autofree char *why =
      available ? NULL
                : g_strdup_printf (_("%s (needs a GPU; none was found here)"),
                                   ms_mode_description (m));
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->mode_checks[m]),
                                 why ? why : ms_mode_description (m));
  }
  g_autofree char *summary = NULL;
  int n_sizes = valid ? ms_sweep_n_sizes (&s) : 0, n_modes = valid ? ms_sweep_n_modes (&s) : 0;
  g_autofree char *sizes =
    g_strdup_printf (ngettext ("%d size", "%d sizes", n_sizes), n_sizes);
  g_autofree char *modes =
    g_strdup_printf (ngettext ("%d mode", "%d modes", n_modes), n_modes);
  if (valid && s.reps_rule == MS_REPS_FIXED)
    summary = g_strdup_printf (_("%s × %s = %d cells, %d timed runs each"), sizes, modes,
                               ms_sweep_n_cells (&s), s.reps);
  else if (valid)
    summary = g_strdup_printf (_("%s × %s = %d cells, at least %d timed runs each "
                                 "(more until the median is known within %g%%)"),
                               sizes, modes, ms_sweep_n_cells (&s), s.min_reps, s.ci_target_pct);
  if (g_strcmp0 (gtk_label_get_text (self->sweep_summary), summary ? summary : err) != 0) {
    gtk_label_set_text (self->sweep_summary, summary ? summary : err);
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SUMMARY]);
  }
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_mode_toggled (MsSettingsPane *self, GtkCheckButton *check)
{
  /* A mode this machine cannot run shows as off; that is not the user's
   * choice, which stays saved. */
  for (int m = 0; m < MS_MODE_COUNT; m++)
    if (self->mode_checks[m] == check && ms_sweep_settings_mode_available (self->sweep_settings, m))
      ms_sweep_settings_set_mode (self->sweep_settings, m, gtk_check_button_get_active (check));
}

/* A drop-down's position is the choice's value (the engine's enums count
 * from 0 without gaps, in the order of the table's names). */
static gboolean
choice_to_position (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  g_value_set_uint (to, (guint) g_value_get_int (from));
  return TRUE;
}

static gboolean
position_to_choice (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  guint pos = g_value_get_uint (from);
  if (pos == GTK_INVALID_LIST_POSITION)
    return FALSE;
  g_value_set_int (to, (int) pos);
  return TRUE;
}

/* Whether the rule is the one data holds: the fixed count's check box,
 * and the adaptive rule's own settings, which mean nothing under a fixed
 * count. */
static gboolean
rule_is (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  g_value_set_boolean (to, g_value_get_int (from) == GPOINTER_TO_INT (data));
  return TRUE;
}

/* The table's Reps column counts more than the spin button's value unless
 * the count is fixed: the label says which. */
static gboolean
rule_to_reps_label (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  g_value_set_string (to, g_value_get_int (from) == MS_REPS_FIXED ? _("Re_petitions")
                                                                  : _("Minimum re_petitions"));
  return TRUE;
}

static gboolean
fixed_to_rule (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  g_value_set_int (to, g_value_get_boolean (from) ? MS_REPS_FIXED : MS_REPS_ADAPTIVE);
  return TRUE;
}

static char *
order_title (gpointer item, int value)
{
  return g_strdup (value == MS_ORDER_BREADTH_FIRST ? _("Breadth-first") : _("Depth-first"));
}

static char *
stores_title (gpointer item, int value)
{
  switch (value) {
  case MS_STORES_ORDINARY: return g_strdup (_("Ordinary stores"));
  case MS_STORES_FRESH: return g_strdup (_("Fresh buffers"));
  default: return g_strdup (_("Streaming stores"));
  }
}

/* Every control to the property of its setting's key, of whichever
 * settings the pane shows. */
static void
bind_controls (MsSettingsPane *self)
{
  const GBindingFlags flags = G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE;
  for (guint i = 0; i < self->n_controls; i++) {
    const Control *c = &self->controls[i];
    /* Values out of range (an edited dconf) are clamped by the adjustments
     * and then validated like any other input. */
    if (GTK_IS_SPIN_BUTTON (c->widget))
      g_binding_group_bind (self->bindings, c->setting->key, c->widget, "value", flags);
    else
      g_binding_group_bind_full (self->bindings, c->setting->key, c->widget, "selected", flags,
                                 choice_to_position, position_to_choice, NULL, NULL);
    if (c->setting->adaptive_only)
      g_binding_group_bind_full (self->bindings, "reps-rule", c->widget, "sensitive",
                                 G_BINDING_SYNC_CREATE, rule_is, NULL,
                                 GINT_TO_POINTER (MS_REPS_ADAPTIVE), NULL);
  }
  g_binding_group_bind_full (self->bindings, "reps-rule", self->fixed_reps_check, "active", flags,
                             rule_is, fixed_to_rule, GINT_TO_POINTER (MS_REPS_FIXED), NULL);
  g_binding_group_bind_full (self->bindings, "reps-rule", self->reps_label, "label",
                             G_BINDING_SYNC_CREATE, rule_to_reps_label, NULL, NULL, NULL);
}

static void
ms_settings_pane_set_sweep_settings (MsSettingsPane *self, MsSweepSettings *settings)
{
  g_return_if_fail (MS_IS_SETTINGS_PANE (self));
  if (!settings || settings == self->sweep_settings)
    return;
  if (self->sweep_settings)
    g_signal_handlers_disconnect_by_func (self->sweep_settings, on_changed, self);
  g_set_object (&self->sweep_settings, settings);
  g_binding_group_set_source (self->bindings, settings);
  g_signal_connect_swapped (settings, "notify", G_CALLBACK (on_changed), self);
  on_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SWEEP_SETTINGS]);
}

static const MsProp prop_table[N_PROPS] = {
  [PROP_SUMMARY] = { "summary", G_TYPE_STRING, MS_PROP_NO_FIELD, .flags = G_PARAM_READABLE,
                     .getter = G_CALLBACK (ms_settings_pane_get_summary) },
  [PROP_SWEEP_SETTINGS] = { "sweep-settings", G_TYPE_OBJECT,
                            MS_PROP_FIELD (MsSettingsPane, sweep_settings),
                            .get_type = ms_sweep_settings_get_type,
                            .setter = G_CALLBACK (ms_settings_pane_set_sweep_settings) },
};

static void
ms_settings_pane_finalize (GObject *object)
{
  g_object_unref (MS_SETTINGS_PANE (object)->bindings);
  G_OBJECT_CLASS (ms_settings_pane_parent_class)->finalize (object);
}

static void
ms_settings_pane_dispose (GObject *object)
{
  MsSettingsPane *self = MS_SETTINGS_PANE (object);
  /* The settings outlive the pane: undo the bindings first. */
  g_binding_group_set_source (self->bindings, NULL);
  if (self->sweep_settings)
    g_signal_handlers_disconnect_by_func (self->sweep_settings, on_changed, self);
  memset (self->mode_checks, 0, sizeof self->mode_checks);
  ms_widget_dispose_children (GTK_WIDGET (object), MS_TYPE_SETTINGS_PANE);
  g_clear_object (&self->sweep_settings);
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
  object_class->finalize = ms_settings_pane_finalize;
  ms_props_install (object_class, prop_table, props, N_PROPS);
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 0);

  /* The drop-downs list these enums' values. */
  g_type_ensure (MS_TYPE_ISSUE_ORDER);
  g_type_ensure (MS_TYPE_HOST_STORES);
#define CHILD(name) MS_TEMPLATE_CHILD (MsSettingsPane, name)
  static const MsTemplateBind binds[] = {
    CHILD (min_exp_spin), CHILD (max_exp_spin), CHILD (step_spin), CHILD (reps_spin),
    CHILD (warmup_spin), CHILD (streams_spin), CHILD (min_exp_label), CHILD (max_exp_label),
    CHILD (sweep_summary), CHILD (reps_label), CHILD (order_dropdown), CHILD (stores_dropdown),
    CHILD (reuse_spin), CHILD (fixed_reps_check), CHILD (timing_grid), CHILD (modes_box),
    MS_TEMPLATE_CALLBACK (order_title), MS_TEMPLATE_CALLBACK (stores_title)
  };
#undef CHILD
  ms_widget_class_set_template (widget_class, "ms-settings-pane", binds, G_N_ELEMENTS (binds));
}

/* The adjustment's range is the table's; a range open at its lower end
 * starts one step (of the digits shown) above it. */
static void
range_from_table (GtkSpinButton *spin, const MsSetting *setting)
{
  guint digits = setting->kind == MS_SETTING_DOUBLE ? 1 : 0;
  double lower = setting->above_min ? setting->min + pow (10, -(double) digits) : setting->min;
  gtk_spin_button_set_digits (spin, digits);
  gtk_spin_button_set_range (spin, lower, setting->max);
}

static void
add_control (MsSettingsPane *self, const MsSetting *setting, GtkWidget *widget)
{
  g_assert (setting && self->n_controls < MAX_CONTROLS);
  self->controls[self->n_controls++] = (Control) { setting, widget };
  if (GTK_IS_SPIN_BUTTON (widget)) {
    range_from_table (GTK_SPIN_BUTTON (widget), setting);
    g_signal_connect_object (gtk_editable_get_delegate (GTK_EDITABLE (widget)), "activate",
                             G_CALLBACK (on_spin_activate), self, G_CONNECT_SWAPPED);
  }
}

static gboolean
has_control (MsSettingsPane *self, const char *key)
{
  /* The repetition rule is the fixed count's check. */
  if (strcmp (key, "reps-rule") == 0)
    return TRUE;
  for (guint i = 0; i < self->n_controls; i++)
    if (strcmp (self->controls[i].setting->key, key) == 0)
      return TRUE;
  return FALSE;
}

/* The table's help as a tooltip: one sentence, capitalised. */
static char *
help_tooltip (const MsSetting *setting)
{
  g_autofree char *text = g_strdup (_(setting->help));
  g_strdelimit (text, "\n", ' ');
  return g_strdup_printf ("%c%s.", g_ascii_toupper (text[0]), text + 1);
}

/* A row under the count's check for every key the template has no control
 * for: a setting added to the table shows up here with its title and help. */
static void
add_table_rows (MsSettingsPane *self)
{
  int row = 2;
  for (int i = 0; i < ms_setting_count (); i++) {
    const MsSetting *setting = ms_setting_nth (i);
    if (!setting->key || setting->kind == MS_SETTING_MODES || has_control (self, setting->key))
      continue;
    GtkWidget *label = gtk_label_new (_(setting->title));
    GtkWidget *control = setting->kind == MS_SETTING_CHOICE
                           ? gtk_drop_down_new_from_strings (setting->choices)
                           : gtk_spin_button_new_with_range (0, 1, 1);
    g_autofree char *tooltip = help_tooltip (setting);
    gtk_label_set_xalign (GTK_LABEL (label), 0);
    gtk_label_set_wrap (GTK_LABEL (label), TRUE);
    gtk_label_set_mnemonic_widget (GTK_LABEL (label), control);
    gtk_widget_set_tooltip_text (label, tooltip);
    gtk_widget_set_tooltip_text (control, tooltip);
    gtk_grid_insert_row (self->timing_grid, row);
    gtk_grid_attach (self->timing_grid, label, 0, row, 1, 1);
    gtk_grid_attach (self->timing_grid, control, 1, row, 1, 1);
    add_control (self, setting, control);
    row++;
  }
}

static void
ms_settings_pane_init (MsSettingsPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->bindings = g_binding_group_new ();
  for (int m = 0; m < MS_MODE_COUNT; m++) {
    GtkWidget *check = gtk_check_button_new_with_label (ms_mode_title (m));
    gtk_widget_set_tooltip_text (check, ms_mode_description (m));
    gtk_box_append (self->modes_box, check);
    self->mode_checks[m] = GTK_CHECK_BUTTON (check);
    g_signal_connect_object (check, "toggled", G_CALLBACK (on_mode_toggled), self,
                             G_CONNECT_SWAPPED);
  }
  /* The template's controls by key; the table gives their ranges. */
  static const struct { const char *key; gsize offset; } template_controls[] = {
    { "min-exp", G_STRUCT_OFFSET (MsSettingsPane, min_exp_spin) },
    { "max-exp", G_STRUCT_OFFSET (MsSettingsPane, max_exp_spin) },
    { "step", G_STRUCT_OFFSET (MsSettingsPane, step_spin) },
    { "reps", G_STRUCT_OFFSET (MsSettingsPane, reps_spin) },
    { "warmup", G_STRUCT_OFFSET (MsSettingsPane, warmup_spin) },
    { "streams", G_STRUCT_OFFSET (MsSettingsPane, streams_spin) },
    { "reuse", G_STRUCT_OFFSET (MsSettingsPane, reuse_spin) },
    { "order", G_STRUCT_OFFSET (MsSettingsPane, order_dropdown) },
    { "host-stores", G_STRUCT_OFFSET (MsSettingsPane, stores_dropdown) },
  };
  for (guint i = 0; i < G_N_ELEMENTS (template_controls); i++)
    add_control (self, ms_setting_find (template_controls[i].key),
                 G_STRUCT_MEMBER (GtkWidget *, self, template_controls[i].offset));
  add_table_rows (self);
  /* Until the window hands its own: the same GSettings keys. */
  g_autoptr (GSettings) settings = g_settings_new (MS_APPLICATION_ID);
  g_autoptr (MsSweepSettings) own = ms_sweep_settings_new (settings);
  bind_controls (self);
  ms_settings_pane_set_sweep_settings (self, own);
}

