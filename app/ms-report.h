/* ms-report.h: the plain-text tables of the command line. */
#pragma once

#include <stdio.h>

#include "memsweep.h"

void ms_report_device (FILE *out, const MsDeviceInfo *info);
void ms_report_header (FILE *out, const MsResults *results);
void ms_report_table (FILE *out, const MsResults *results);
