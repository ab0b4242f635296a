/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-app-i18n.c: the app in the locale of LC_ALL (zh_CN.UTF-8 or
 * de_DE.UTF-8, set by meson), under Xvfb. In zh_CN the window shows the
 * Simplified Chinese translation: its own labels, those of its templates and
 * the engine's mode names and explanations. In every locale an exported CSV
 * keeps '.' as the decimal point and reads back. Skips (77) when the locale
 * is not installed. */
#include <glib/gi18n.h>
#include <gtk/gtk.h>
#include <locale.h>

#include "memsweep.h"
#include "ms-application.h"
#include "ms-i18n.h"
#include "ms-app-test.h"
#include "ms-reference-runs.h"
#include "ms-reference-test.h"
#include "ms-window.h"
#include "model/ms-results.h"
#include "lessons/ms-run-read.h"

static gboolean done;

static gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

/* Every label, button label and tooltip under widget, one per line. */
static void
collect_texts (GtkWidget *widget, GString *out)
{
  const char *texts[2] = { NULL, NULL };
  const char *tooltip = gtk_widget_get_tooltip_text (widget);
  if (GTK_IS_LABEL (widget))
    texts[0] = gtk_label_get_label (GTK_LABEL (widget));
  else if (GTK_IS_BUTTON (widget))
    texts[0] = gtk_button_get_label (GTK_BUTTON (widget));
  else if (GTK_IS_CHECK_BUTTON (widget))
    texts[0] = gtk_check_button_get_label (GTK_CHECK_BUTTON (widget));
  texts[1] = tooltip;
  for (int i = 0; i < 2; i++)
    if (texts[i])
      g_string_append_printf (out, "%s\n", texts[i]);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_texts (c, out);
}

static void
expect_text (const char *texts, const char *want)
{
  if (!strstr (texts, want))
    g_error ("'%s' is not in the window; it shows:\n%s", want, texts);
}

static void
check_translated (MsWindow *win)
{
  g_autoptr (GString) texts = g_string_new (NULL);
  collect_texts (GTK_WIDGET (win), texts);
  expect_text (texts->str, "运行(_R)");           /* ms-window.ui: the Run button */
  expect_text (texts->str, "要测量的 GPU");       /* a tooltip of the window */
  expect_text (texts->str, "内存模式");           /* ms-settings-pane.ui */
  expect_text (texts->str, "页锁定内存");         /* the engine's mode title */
  expect_text (texts->str, "零拷贝");
  expect_text (texts->str, "cudaMallocHost 分配的"); /* the engine's explanation */
  expect_text (texts->str, "点击列标题进行排序"); /* ms-table-page.ui */
  g_assert_null (strstr (texts->str, "Memory modes"));
}

/* Data rows of a CSV file keep the header's field count: a decimal comma
 * would add fields. */
static void
check_csv_numbers (const char *path)
{
  g_autofree char *data = NULL;
  g_assert_true (g_file_get_contents (path, &data, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (data, "\n", -1);
  int fields = -1, rows = 0;
  for (char **l = lines; *l; l++) {
    if (**l == '\0' || **l == '#')
      continue;
    int n = 1;
    gboolean quoted = FALSE;
    for (const char *p = *l; *p; p++) {
      quoted ^= *p == '"';
      n += *p == ',' && !quoted;
    }
    if (fields < 0)
      fields = n;
    else
      g_assert_cmpint (n, ==, fields);
    rows++;
  }
  g_assert_cmpint (rows, >, 10);
  g_assert_true (g_regex_match_simple ("^\"pinned\",1024,4096,.*[0-9]\\.[0-9]{3}", data,
                                       G_REGEX_MULTILINE, 0));
}

static void
on_activate (GApplication *app)
{
  MsWindow *win = MS_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_nonnull (win);
  ms_test_wait_until (is_mapped, win, "the window shows");
  if (g_str_has_prefix (setlocale (LC_MESSAGES, NULL), "zh_CN"))
    check_translated (win);

  g_autoptr (GError) error = NULL;
  g_autofree char *ref = g_build_filename (ms_reference_dir (), "h100-default-samples.csv.gz", NULL);
  g_assert_true (ms_window_load_path (win, ref, &error));
  g_assert_no_error (error);
  for (int summary = 0; summary < 2; summary++) {
    const char *csv = ms_test_tmp_path (summary ? "s.csv" : "x-samples.csv");
    g_assert_true (ms_window_export_csv (win, csv, summary, &error));
    g_assert_no_error (error);
    check_csv_numbers (csv);
  }
  char err[512];
  const char *samples = ms_test_tmp_path ("x-samples.csv");
  MsResults *back = ms_run_read_samples (samples, err, sizeof err);
  g_assert_nonnull (back);
  g_assert_cmpuint (back->n_cells, ==, ms_test_n_cells (ref));
  ms_results_free (back);
  gtk_window_close (GTK_WINDOW (win));
  done = TRUE;
}

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  /* gtk_test_init chose a fixed locale; take the one the test asks for. */
  const char *want = g_getenv ("LC_ALL");
  const char *got = setlocale (LC_ALL, "");
  if (!want || !got || strcmp (got, want) != 0) {
    g_print ("locale %s is not installed: skipped\n", want ? want : "(LC_ALL unset)");
    return 77;
  }
  /* As app/gtk/main.c does. */
  ms_i18n_bind ();
  textdomain (GETTEXT_PACKAGE);
  ms_test_app_run_checked (on_activate, &done);
  return 0;
}
