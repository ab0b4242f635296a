/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-application.c: the application object. */
#include "ms-application.h"

#include <glib/gi18n.h>

#include "memsweep.h"
#include "ms-lessons.h"
#include "ms-runs-library.h"
#include "ms-window.h"

struct _MsApplication {
  AdwApplication parent_instance;
  GSettings *settings;
  gboolean run_at_start;
  char *lesson; /* --lesson NAME: the Lessons page opens on it */
};

G_DEFINE_FINAL_TYPE (MsApplication, ms_application, ADW_TYPE_APPLICATION)

static MsWindow *
get_window (MsApplication *self)
{
  GtkWindow *w = gtk_application_get_active_window (GTK_APPLICATION (self));
  if (!w)
    w = GTK_WINDOW (ms_window_new (ADW_APPLICATION (self)));
  return MS_WINDOW (w);
}

static void
ms_application_activate (GApplication *app)
{
  MsApplication *self = MS_APPLICATION (app);
  MsWindow *w = get_window (self);
  gtk_window_present (GTK_WINDOW (w));
  if (self->lesson) {
    /* --run with --lesson runs the card, not a sweep. */
    g_action_group_activate_action (G_ACTION_GROUP (self), "lesson",
                                    g_variant_new ("(sb)", self->lesson, self->run_at_start));
    g_clear_pointer (&self->lesson, g_free);
    self->run_at_start = FALSE;
  }
  if (self->run_at_start) {
    self->run_at_start = FALSE;
    ms_window_run_when_ready (w);
  }
}

static void
ms_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  MsWindow *w = get_window (MS_APPLICATION (app));
  for (int i = 0; i < n_files; i++)
    ms_window_open_file (w, files[i]);
  ms_application_activate (app);
}

static int
ms_application_handle_local_options (GApplication *app, GVariantDict *options)
{
  if (g_variant_dict_contains (options, "run"))
    MS_APPLICATION (app)->run_at_start = TRUE;
  const char *lesson = NULL;
  if (g_variant_dict_lookup (options, "lesson", "&s", &lesson)) {
    MsLessonTopic asked = ms_lesson_topic_from_name (lesson);
    if (asked == MS_TOPIC_COUNT) {
      g_printerr (_("memsweep-gtk: no lesson is called “%s”; the lessons are:"), lesson);
      for (int t = 0; t < MS_TOPIC_COUNT; t++)
        g_printerr (" %s", ms_lesson_topic (t)->name);
      g_printerr ("\n");
      return 1;
    }
    /* Its one name, also when asked for by its alias. */
    g_free (MS_APPLICATION (app)->lesson);
    MS_APPLICATION (app)->lesson = g_strdup (ms_lesson_topic (asked)->name);
  }
  if (g_variant_dict_contains (options, "version")) {
    g_print ("memsweep-gtk %s\n", MS_VERSION);
    return 0;
  }
  return -1;
}

/* "color-scheme": 'default', 'light' or 'dark' -> the style manager's. */
static gboolean
color_scheme_from_setting (GValue *value, GVariant *variant, gpointer data)
{
  const char *scheme = g_variant_get_string (variant, NULL);
  AdwColorScheme s = ADW_COLOR_SCHEME_DEFAULT;
  if (g_strcmp0 (scheme, "light") == 0)
    s = ADW_COLOR_SCHEME_FORCE_LIGHT;
  else if (g_strcmp0 (scheme, "dark") == 0)
    s = ADW_COLOR_SCHEME_FORCE_DARK;
  g_value_set_enum (value, s);
  return TRUE;
}

static void
action_about (GSimpleAction *a, GVariant *p, gpointer data)
{
  GtkApplication *app = data;
  const char *developers[] = { _("The memsweep developers"), NULL };
  GtkWidget *about = adw_about_window_new ();
  g_object_set (about, "transient-for", gtk_application_get_active_window (app), "application-name",
                "memsweep", "application-icon", MS_APPLICATION_ID, "version", MS_VERSION,
                "comments",
                _("A lab for CUDA host↔device memory: every memory mode, every phase, "
                  "verified, timed and drawn."),
                "license-type", GTK_LICENSE_GPL_3_0, "developers", developers, NULL);
  gtk_window_present (GTK_WINDOW (about));
}

/* app.lesson(("duplex", run)): the Lessons page on that card, and its Run
 * when run is true (--lesson). */
static void
action_lesson (GSimpleAction *a, GVariant *p, gpointer data)
{
  const char *name;
  gboolean run;
  g_variant_get (p, "(&sb)", &name, &run);
  ms_window_open_lesson (get_window (MS_APPLICATION (data)), name, run);
}

static void
action_quit (GSimpleAction *a, GVariant *p, gpointer data)
{
  GtkApplication *app = data;
  GList *windows = gtk_application_get_windows (app);
  /* Close (not destroy) so that a running sweep is cancelled cleanly. */
  for (GList *l = windows; l; l = l->next)
    gtk_window_close (l->data);
}

static void
ms_application_startup (GApplication *app)
{
  MsApplication *self = MS_APPLICATION (app);
  G_APPLICATION_CLASS (ms_application_parent_class)->startup (app);
  g_set_application_name ("memsweep");
  gtk_window_set_default_icon_name (MS_APPLICATION_ID);
  self->settings = g_settings_new (MS_APPLICATION_ID);
  const GActionEntry entries[] = {
    { "about", action_about },
    { "quit", action_quit },
    { "lesson", action_lesson, "(sb)" },
  };
  g_action_map_add_action_entries (G_ACTION_MAP (app), entries, G_N_ELEMENTS (entries), app);
  /* The Style menu sets the key; the style manager follows the key. */
  g_autoptr (GAction) scheme = g_settings_create_action (self->settings, "color-scheme");
  g_action_map_add_action (G_ACTION_MAP (app), scheme);
  g_settings_bind_with_mapping (self->settings, "color-scheme", adw_style_manager_get_default (),
                                "color-scheme", G_SETTINGS_BIND_GET, color_scheme_from_setting,
                                NULL, NULL, NULL);

  static const struct { const char *action; const char *accels[4];
  } accels[] = {
    { "app.quit", { "<Primary>q", NULL } },
    { "win.run", { "<Primary>r", NULL } },
    { "win.stop", { "Escape", NULL } },
    { "win.open", { "<Primary>o", NULL } },
    { "win.recent-runs", { "<Primary><Shift>o", NULL } },
    { "win.export-csv", { "<Primary>e", NULL } },
    { "win.export-chart", { "<Primary><Shift>e", NULL } },
    /* The handout is the page memsweep makes to be printed. */
    { "win.export-handout", { "<Primary>p", NULL } },
    { "win.presentation", { "F11", NULL } },
    { "win.settings-shown", { "F8", NULL } },
    { "win.text-scale(1)", { "<Primary>plus", "<Primary>equal", "<Primary>KP_Add", NULL } },
    { "win.text-scale(-1)", { "<Primary>minus", "<Primary>KP_Subtract", NULL } },
    { "win.text-scale(0)", { "<Primary>0", NULL } },
    { "win.view(0)", { "<Alt>1", NULL } },
    { "win.view(1)", { "<Alt>2", NULL } },
    { "win.view(2)", { "<Alt>3", NULL } },
    { "win.view(3)", { "<Alt>4", NULL } },
    { "win.view(4)", { "<Alt>5", NULL } },
    { "win.view(5)", { "<Alt>6", NULL } },
    { "win.view(6)", { "<Alt>7", NULL } },
    { "win.view(7)", { "<Alt>8", NULL } },
    { "win.timeline-zoom(1)", { "<Primary>bracketright", NULL } },
    { "win.timeline-zoom(-1)", { "<Primary>bracketleft", NULL } },
    { "win.copy-rows", { "<Primary>c", NULL } },
    { "win.filter-rows", { "<Primary>f", NULL } },
    { "win.show-runs", { "<Primary><Shift>r", NULL } },
    { "win.show-help-overlay", { "<Primary>question", NULL } },
    { "win.reference-runs", { "<Primary><Shift>l", NULL } },
    { "win.focus-canvas", { "<Alt>n", NULL } },
    { "win.highlight-pointer", { "<Primary><Shift>h", NULL } },
  };
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action,
                                           accels[i].accels);
}

static void
ms_application_shutdown (GApplication *app)
{
  /* Runs deleted with their undo still offered are deleted now. */
  ms_runs_library_purge_all (ms_runs_library_get_default ());
  /* The style manager outlives the application: stop it following the key. */
  g_settings_unbind (adw_style_manager_get_default (), "color-scheme");
  G_APPLICATION_CLASS (ms_application_parent_class)->shutdown (app);
}

static void
ms_application_dispose (GObject *object)
{
  g_clear_object (&MS_APPLICATION (object)->settings);
  g_clear_pointer (&MS_APPLICATION (object)->lesson, g_free);
  G_OBJECT_CLASS (ms_application_parent_class)->dispose (object);
}

static void
ms_application_class_init (MsApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ms_application_dispose;
  app_class->activate = ms_application_activate;
  app_class->open = ms_application_open;
  app_class->startup = ms_application_startup;
  app_class->shutdown = ms_application_shutdown;
  app_class->handle_local_options = ms_application_handle_local_options;
}

static void
ms_application_init (MsApplication *self)
{
  const GOptionEntry options[] = {
    { "run", 0, 0, G_OPTION_ARG_NONE, NULL, N_ ("Start a sweep with the saved settings"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_ ("Print the version and exit"), NULL },
    { "lesson", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_ ("Open the Lessons page on lesson NAME (with --run: run it)"), N_ ("NAME") },
    { NULL },
  };
  g_application_add_main_option_entries (G_APPLICATION (self), options);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), "[FILE.csv…]");
  g_application_set_option_context_summary (
    G_APPLICATION (self), _("Sweeps CUDA memory modes and draws bandwidth curves and timelines. "
                            "FILE.csv: samples files to open for comparison."));
}

void ms_register_resource (void);

MsApplication *
ms_application_new (void)
{
  static gsize registered;
  if (g_once_init_enter (&registered)) {
    ms_register_resource ();
    g_once_init_leave (&registered, 1);
  }
  return g_object_new (MS_TYPE_APPLICATION, "application-id", MS_APPLICATION_ID, "flags",
                       G_APPLICATION_HANDLES_OPEN, "resource-base-path",
                       "/io/github/memsweep/Memsweep", NULL);
}
