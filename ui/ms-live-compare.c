/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-live-compare.c: the Compare page's Measure Live. Two runs made one
 * after the other differ by whatever the machine did in between; measured
 * live, A and B take turns and the drift falls on both (docs/compare.md),
 * so that the page's verdicts decide. The session owns the work and names
 * its runs when they come; this file only asks for it and shows it. */
#include <adwaita.h>
#include <glib/gi18n.h>

#include "ms-live-compare.h"

/* `memsweep compare --live`'s own default budget, in seconds. */
#define LIVE_DEFAULT_BUDGET_S 120
#define LIVE_MAX_BUDGET_S 3600

typedef struct {
  MsPage *page;        /* owns this */
  GPtrArray *buttons;  /* GtkButton, borrowed: children of the page */
  GSignalGroup *session_signals; /* on the page's session */
} MsLiveCompare;

typedef struct {
  MsLiveCompare *live;
  GtkEntry *options[2];
  GtkSpinButton *budget;
} MsLiveDialog;

static void
live_free (MsLiveCompare *live)
{
  g_ptr_array_unref (live->buttons);
  g_object_unref (live->session_signals);
  g_free (live);
}

static void
update_buttons (MsLiveCompare *live)
{
  MsSession *s = ms_page_get_session (live->page);
  gboolean running = s && ms_session_get_live_comparing (s);
  gboolean gpu = s && ms_session_have_gpu (s);
  gboolean can = running || (gpu && !ms_session_get_busy (s));
  const char *tip = running ? _ ("Stop measuring; A and B keep what they measured")
                    : !gpu  ? _ ("Measuring live needs a CUDA device")
                    : !can  ? _ ("Other work is running")
                            : _ ("Measure A and B now, in processes that take turns, until every "
                                  "cell is decided or the time budget is spent");
  for (guint i = 0; i < live->buttons->len; i++) {
    GtkButton *b = live->buttons->pdata[i];
    /* The first sits among the pickers, which need the width at 1024x768:
     * its words are short, and its tooltip says the rest. */
    if (i == 0)
      gtk_button_set_label (b, running ? _ ("_Stop Live") : _ ("_Live…"));
    else
      gtk_button_set_label (b, running ? _ ("Stop _Live Measurement") : _ ("Measure _Live…"));
    gtk_widget_set_sensitive (GTK_WIDGET (b), can);
    gtk_widget_set_tooltip_text (GTK_WIDGET (b), tip);
  }
}

static void
show_error (MsLiveCompare *live, const char *heading, const char *message)
{
  GtkWidget *d = adw_message_dialog_new (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (live->page))),
                                         heading, message);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (d), "close", _ ("_Close"));
  gtk_window_present (GTK_WINDOW (d));
}

static void
on_finished (MsLiveCompare *live, MsRun *a, MsRun *b, const char *error)
{
  update_buttons (live);
  /* Both runs came: the page picks them (it follows the same signal). */
  if (!a || !b)
    show_error (live, _ ("Live Measurement Failed"), error ? error : "");
}

static void
on_page_gone (gpointer data, GObject *page)
{
  live_free (data);
}

static void
on_response (AdwMessageDialog *dialog, const char *response, MsLiveDialog *d)
{
  MsLiveCompare *live = d->live;
  MsSession *session = ms_page_get_session (live->page);
  if (g_strcmp0 (response, "measure") != 0 || !session)
    return;
  double threshold;
  g_object_get (live->page, "threshold", &threshold, NULL);
  g_autoptr (GError) error = NULL;
  if (!ms_session_run_live_compare (session,
                                    gtk_editable_get_text (GTK_EDITABLE (d->options[0])),
                                    gtk_editable_get_text (GTK_EDITABLE (d->options[1])),
                                    gtk_spin_button_get_value (d->budget), threshold, &error))
    show_error (live, _ ("Cannot Measure Live"), error->message);
}

static void
dialog_free (gpointer data, GClosure *closure)
{
  g_free (data);
}

static GtkWidget *
labelled (GtkGrid *grid, int row, const char *label, GtkWidget *field)
{
  GtkWidget *l = gtk_label_new_with_mnemonic (label);
  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_label_set_mnemonic_widget (GTK_LABEL (l), field);
  gtk_widget_set_hexpand (field, TRUE);
  gtk_grid_attach (grid, l, 0, row, 1, 1);
  gtk_grid_attach (grid, field, 1, row, 1, 1);
  return field;
}

/* The question: each side's `memsweep run` options and the budget. */
static void
ask (MsLiveCompare *live)
{
  GtkWidget *dialog = adw_message_dialog_new (
      GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (live->page))), _ ("Measure A and B Live"),
      _ ("A and B are measured now as compare-grade runs, a process of A then one of B, so that "
         "what the machine does meanwhile falls on both. It stops when every cell is decided or "
         "the budget is spent; both runs are kept with Recent Runs. Each side takes the options "
         "of memsweep run, for example --device 1 or --modes pinned."));
  MsLiveDialog *d = g_new0 (MsLiveDialog, 1);
  d->live = live;
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_row_spacing (grid, 6);
  gtk_grid_set_column_spacing (grid, 12);
  const char *names[2] = { N_ ("Run _A options"), N_ ("Run _B options") };
  for (int s = 0; s < 2; s++) {
    d->options[s] = GTK_ENTRY (labelled (grid, s, _ (names[s]), gtk_entry_new ()));
    gtk_entry_set_placeholder_text (d->options[s], _ ("none: the default sweep"));
    gtk_entry_set_activates_default (d->options[s], TRUE);
  }
  d->budget = GTK_SPIN_BUTTON (labelled (
      grid, 2, _ ("_Time budget (s)"), gtk_spin_button_new_with_range (10, LIVE_MAX_BUDGET_S, 10)));
  gtk_spin_button_set_value (d->budget, LIVE_DEFAULT_BUDGET_S);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), GTK_WIDGET (grid));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "measure",
                                    _ ("_Measure"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "measure",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "measure");
  g_signal_connect_data (dialog, "response", G_CALLBACK (on_response), d, dialog_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_clicked (GtkButton *button, MsLiveCompare *live)
{
  MsSession *session = ms_page_get_session (live->page);
  if (session && ms_session_get_live_comparing (session))
    ms_session_stop_live_compare (session);
  else if (session)
    ask (live);
}

void
ms_live_compare_attach (MsPage *page, GtkButton *const *buttons)
{
  MsLiveCompare *live = g_new0 (MsLiveCompare, 1);
  live->page = page;
  live->buttons = g_ptr_array_new ();
  for (GtkButton *const *b = buttons; *b; b++) {
    g_ptr_array_add (live->buttons, *b);
    gtk_button_set_use_underline (*b, TRUE);
    g_signal_connect (*b, "clicked", G_CALLBACK (on_clicked), live);
  }
  live->session_signals = g_signal_group_new (MS_TYPE_SESSION);
  g_signal_group_connect_swapped (live->session_signals, "notify::busy",
                                  G_CALLBACK (update_buttons), live);
  g_signal_group_connect_swapped (live->session_signals, "notify::have-gpu",
                                  G_CALLBACK (update_buttons), live);
  g_signal_group_connect_swapped (live->session_signals, "live-compare-finished",
                                  G_CALLBACK (on_finished), live);
  g_object_bind_property (page, "session", live->session_signals, "target",
                          G_BINDING_SYNC_CREATE);
  g_object_weak_ref (G_OBJECT (page), on_page_gone, live);
  g_signal_connect_swapped (page, "notify::session", G_CALLBACK (update_buttons), live);
  update_buttons (live);
}
