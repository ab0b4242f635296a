/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-pcie-aer.c: a GPU's corrected PCIe errors as the kernel's AER driver
 * counts them in sysfs (ms-pcie-aer.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ms-pcie-aer.h"

/* Opens path for reading if it is a regular file, as the file readers'
 * ms_open_regular does (a FIFO or device in its place is refused at once,
 * never waited on); devices/ sits below files/, so it has its own. */
static int
open_regular (const char *path)
{
  struct stat st;
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    return -1;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode)) {
    close (fd);
    return -1;
  }
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

/* "00000000:19:00.0" (CUDA, NVML) as sysfs names it, "0000:19:00.0";
 * false for anything that is not a bus id. */
static bool
sysfs_bus_id (const char *id, char *out, size_t len)
{
  const char *colon = strchr (id, ':');
  if (!colon || colon - id < 4 || strlen (colon) != 8 || len < 13)
    return false;
  for (const char *p = id; *p; p++)
    if (!isxdigit ((unsigned char)*p) && *p != ':' && *p != '.')
      return false;
  snprintf (out, len, "%.4s%s", colon - 4, colon);
  for (char *p = out; *p; p++)
    *p = (char)tolower ((unsigned char)*p);
  return true;
}

bool
ms_aer_read_correctable (const char *root, const char *pci_bus_id, uint64_t *count)
{
  char bus[16], path[512], line[128];
  if (!pci_bus_id || !sysfs_bus_id (pci_bus_id, bus, sizeof bus))
    return false;
  snprintf (path, sizeof path, "%s/%s/aer_dev_correctable", root ? root : "/sys/bus/pci/devices",
            bus);
  int fd = open_regular (path);
  FILE *f = fd >= 0 ? fdopen (fd, "r") : NULL;
  if (!f) {
    if (fd >= 0)
      close (fd);
    return false;
  }
  bool found = false;
  while (!found && fgets (line, sizeof line, f)) {
    unsigned long long v;
    char tail;
    if (strncmp (line, "TOTAL_ERR_COR ", 14) == 0 && line[14] >= '0' && line[14] <= '9'
        && sscanf (line + 14, "%20llu%c", &v, &tail) >= 1) {
      *count = v;
      found = true;
    }
  }
  fclose (f);
  return found;
}
