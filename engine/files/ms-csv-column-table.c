/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-csv-column-table.c: the columns' list (ms-csv-column-list.h) as
 * tables (see ms-csv-column-table.h). */
#include "ms-csv-column-table.h"
#include "ms-modes.h"
#include "ms-rounds-private.h"

#include <stdio.h>
#include <string.h>

/* A line's PART as the table's fields. */
#define FIELDS_CELL(value) .state = -1
#define FIELDS_ROW(value) .state = -1, .row = true
#define FIELDS_STATE(value) .state = (value)
#define FIELDS_ALWAYS(value) .state = -1, .always = true
#define FIELDS_IF_ANY(value) .state = -1

#define COLUMN(ID, name, type, unit, description, part, value) \
  { name, MS_CSV_##type, unit, description, FIELDS_##part (value) },
#define PHASES() { NULL, MS_CSV_NUMBER, "", NULL, .state = -1 },

const MsCsvColumn ms_samples_columns[MS_N_SAMPLES_COLUMNS] = { MS_SAMPLES_COLUMN_LIST (COLUMN) };
const MsCsvColumn ms_summary_columns[MS_N_SUMMARY_COLUMNS] = {
  MS_SUMMARY_COLUMN_LIST (COLUMN, PHASES)
};
const MsCsvColumn ms_summary_phase_columns[MS_N_SUMMARY_PHASE_COLUMNS] = {
  MS_SUMMARY_PHASE_COLUMN_LIST (COLUMN)
};

const char *
ms_state_column_name (int index)
{
  for (int i = 0; index >= 0 && i < MS_N_SAMPLES_COLUMNS; i++)
    if (ms_samples_columns[i].state == index)
      return ms_samples_columns[i].name;
  return "";
}

void
ms_summary_phase_column_name (int column, MsPhase phase, char *buf, size_t len)
{
  snprintf (buf, len, "%s_%s", ms_phase_name (phase), ms_summary_phase_columns[column].name);
}

void
ms_summary_phase_column_description (int column, MsPhase phase, char *buf, size_t len)
{
  static const char token[] = "the phase";
  const char *text = ms_summary_phase_columns[column].description;
  const char *at = strstr (text, token);
  if (!at) {
    snprintf (buf, len, "%s", text);
    return;
  }
  snprintf (buf, len, "%.*sthe %s phase (%s)%s", (int) (at - text), text, ms_phase_name (phase),
            ms_phase_description (phase), at + strlen (token));
}

void
ms_summary_columns_foreach (MsCsvColumnFunc fn, void *data)
{
  char name[64];
  for (int i = 0; i < MS_N_SUMMARY_COLUMNS; i++) {
    if (i != MS_SUMMARY_PHASES) {
      fn (&ms_summary_columns[i], ms_summary_columns[i].name, data);
      continue;
    }
    for (int p = 0; p < MS_PHASE_COUNT; p++)
      for (int k = 0; k < MS_N_SUMMARY_PHASE_COLUMNS; k++) {
        ms_summary_phase_column_name (k, (MsPhase) p, name, sizeof name);
        fn (&ms_summary_phase_columns[k], name, data);
      }
  }
}
