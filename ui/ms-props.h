/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-props.h: GObject properties described by a table. Most properties of
 * the ui's objects are a field of the instance that is read as it is, and
 * written only when the value differs, then the object does one thing
 * (rebuilds, redraws) and notifies. A class lists such properties once, in
 * a table indexed by its property ids (name, type, field, range, default,
 * what to do on a change), and ms_props_install makes their GParamSpecs and
 * serves get_property and set_property from the table: no switch over ids,
 * no getter and setter per field. Callers set the property (g_object_set);
 * a property that is not a plain field names the class's C setter and
 * getter. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* The field of an MsProp: where it is in the instance. */
#define MS_PROP_FIELD(Type, field) ((gssize) G_STRUCT_OFFSET (Type, field))
/* No field: the class's C setter and getter do it all. */
#define MS_PROP_NO_FIELD ((gssize) -1)

typedef struct {
  const char *name;
  /* G_TYPE_BOOLEAN (a gboolean field), G_TYPE_INT (int), G_TYPE_UINT
   * (guint), G_TYPE_UINT64 (guint64, any), G_TYPE_DOUBLE (double), G_TYPE_STRING
   * (char *, owned), or with get_type: G_TYPE_ENUM (int), G_TYPE_OBJECT (an
   * owned reference) or G_TYPE_BOXED (an owned copy: a reference for
   * GPtrArray). */
  GType type;
  gssize offset; /* MS_PROP_FIELD, or MS_PROP_NO_FIELD */
  /* Numbers: the range and default; booleans and enums: the default. */
  double min, max, def;
  /* 0: read-write, notified only on a change (G_PARAM_EXPLICIT_NOTIFY);
   * otherwise the flags (G_PARAM_READABLE, or G_PARAM_READWRITE |
   * G_PARAM_CONSTRUCT_ONLY, ...). Strings are always static. */
  GParamFlags flags;
  /* After the field took a new value, before the notify; may be NULL. */
  void (*changed) (gpointer self);
  /* TRUE: setting the value the field holds calls changed too (without a
   * notify): an array whose items changed in place. */
  gboolean always_changed;
  /* A property that is not a plain field: the class's own C setter and
   * getter, as G_CALLBACK (ms_foo_set_bar) and G_CALLBACK (ms_foo_get_bar):
   * void set (Foo *self, T value) (it notifies when it changes) and
   * T get (Foo *self), T by the type: gboolean, int (int and enum), guint,
   * double, const char *, or a pointer (object, boxed). */
  GCallback setter;
  GCallback getter;
  /* The enum, object or boxed type's get_type function: such a GType is
   * known only at run time. */
  GType (*get_type) (void);
} MsProp;

/* Makes the n_props - 1 GParamSpecs of table[1 .. n_props - 1] (entry 0 is
 * PROP_0, unused) into pspecs[], installs them with those ids, and sets the
 * class's get_property and set_property to serve them from the table. */
void ms_props_install (GObjectClass *klass, const MsProp *table, GParamSpec **pspecs,
                       guint n_props);
/* For dispose or finalize: drops what the fields of the object's table
 * properties own (strings, references, copies), at every level of its
 * class; MsChartView and MsPage call it, so their subclasses need no
 * dispose for those. */
void ms_props_clear (GObject *object);
/* A string field of an object with its own setter takes a copy of value
 * and pspec is notified, when it differs (GLib 2.76's g_set_str, and the
 * notify); FALSE when it held the same already. */
gboolean ms_props_set_string (gpointer object, char **field, const char *value,
                              GParamSpec *pspec);

G_END_DECLS
