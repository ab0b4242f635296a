/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-application.h: the application: actions, accelerators, colour scheme,
 * opening files given on the command line. */
#pragma once

#include <adwaita.h>

#include "ms-config.h" /* MS_APPLICATION_ID */

G_BEGIN_DECLS

#define MS_TYPE_APPLICATION (ms_application_get_type ())
G_DECLARE_FINAL_TYPE (MsApplication, ms_application, MS, APPLICATION, AdwApplication)

MsApplication *ms_application_new (void);

G_END_DECLS
