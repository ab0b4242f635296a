/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-lesson-deck.h: the lessons as a deck of slides (ms-lesson-deck.c):
 * where a slide is, what its header says of the run it draws, and the
 * keys that move through the deck. */
#pragma once

#include <gtk/gtk.h>

#include "ms-lessons.h"
#include "ms-run.h"

G_BEGIN_DECLS

/* The slide's header on its Details line, one line: "3 of 20 · H100 ·
 * 2026-11-24 · reference run". A run read from the reference folder was
 * measured on another machine and says so; one measured here says that;
 * not_here: the lesson this host cannot measure says so too. The portable
 * lesson names the GPUs and day of its run of several ("2 × H200").
 * Free it. */
char *ms_lesson_deck_source (MsLessonTopic topic, MsRun *run, gboolean not_here);

/* Moves the deck: by step (-1, 1) from the slide shown, or to slide
 * number (step 0). Returns whether a slide was shown. */
typedef gboolean (*MsLessonDeckMove) (GtkWidget *page, int step, int number);

/* PgUp and PgDn (a presentation clicker's buttons), Home and End, and a
 * slide's number typed and then Enter, wherever the keyboard is while
 * page is on screen (a field being typed in keeps its keys); the arrows
 * (other clickers send them), Space and BackSpace while page holds the
 * keyboard itself. header, the slide's "3 of 21" line, says a number
 * typed while it waits for another digit. */
void ms_lesson_deck_add_keys (GtkWidget *page, MsLessonDeckMove move, GtkLabel *header);

G_END_DECLS
