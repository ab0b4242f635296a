/* memsweep-gtk: the desktop app. */
#include <glib/gi18n.h>
#include <locale.h>

#include "ms-application.h"

int
main (int argc, char *argv[])
{
  /* The user's locale for the interface; the engine writes and reads files
   * in the C locale regardless. */
  setlocale (LC_ALL, "");
  g_autoptr (MsApplication) app = ms_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
