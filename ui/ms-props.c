/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ms-props.c: GObject properties described by a table (ms-props.h). */
#include "ms-props.h"

/* Each GParamSpec carries its table entry, so that one get_property and one
 * set_property serve every class (GObject calls the owner class's). */
static GQuark
entry_quark (void)
{
  return g_quark_from_static_string ("ms-prop-entry");
}

static const MsProp *
entry_of (GParamSpec *pspec)
{
  return g_param_spec_get_qdata (pspec, entry_quark ());
}

static GType
type_of (const MsProp *p)
{
  return p->get_type ? p->get_type () : p->type;
}

static GParamSpec *
make_pspec (const MsProp *p)
{
  GParamFlags flags = (p->flags ? p->flags : G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY) |
                      G_PARAM_STATIC_STRINGS;
  switch (p->type) {
  case G_TYPE_BOOLEAN: return g_param_spec_boolean (p->name, NULL, NULL, p->def != 0, flags);
  case G_TYPE_INT:
    return g_param_spec_int (p->name, NULL, NULL, (int) p->min, (int) p->max, (int) p->def, flags);
  case G_TYPE_UINT:
    return g_param_spec_uint (p->name, NULL, NULL, (guint) p->min, (guint) p->max, (guint) p->def,
                              flags);
  case G_TYPE_UINT64: return g_param_spec_uint64 (p->name, NULL, NULL, 0, G_MAXUINT64, 0, flags);
  case G_TYPE_DOUBLE:
    return g_param_spec_double (p->name, NULL, NULL, p->min, p->max, p->def, flags);
  case G_TYPE_ENUM:
    return g_param_spec_enum (p->name, NULL, NULL, type_of (p), (int) p->def, flags);
  case G_TYPE_STRING: return g_param_spec_string (p->name, NULL, NULL, NULL, flags);
  case G_TYPE_OBJECT: return g_param_spec_object (p->name, NULL, NULL, type_of (p), flags);
  case G_TYPE_BOXED: return g_param_spec_boxed (p->name, NULL, NULL, type_of (p), flags);
  default: g_return_val_if_reached (NULL);
  }
}

/* The field's value into value. */
static void
get_field (gpointer self, const MsProp *p, GValue *value)
{
  gpointer field = G_STRUCT_MEMBER_P (self, p->offset);
  switch (p->type) {
  case G_TYPE_BOOLEAN: g_value_set_boolean (value, *(gboolean *) field); break;
  case G_TYPE_INT: g_value_set_int (value, *(int *) field); break;
  case G_TYPE_UINT: g_value_set_uint (value, *(guint *) field); break;
  case G_TYPE_UINT64: g_value_set_uint64 (value, *(guint64 *) field); break;
  case G_TYPE_DOUBLE: g_value_set_double (value, *(double *) field); break;
  case G_TYPE_ENUM: g_value_set_enum (value, *(int *) field); break;
  case G_TYPE_STRING: g_value_set_string (value, *(char **) field); break;
  case G_TYPE_OBJECT: g_value_set_object (value, *(gpointer *) field); break;
  case G_TYPE_BOXED: g_value_set_boxed (value, *(gpointer *) field); break;
  default: g_return_if_reached ();
  }
}

/* The string, object or boxed pointer a value holds, borrowed or owned. */
static gpointer
pointer_of (const GValue *value, gboolean owned)
{
  if (G_VALUE_HOLDS_STRING (value))
    return owned ? g_value_dup_string (value) : (gpointer) g_value_get_string (value);
  if (G_VALUE_HOLDS_OBJECT (value))
    return owned ? g_value_dup_object (value) : g_value_get_object (value);
  return owned ? g_value_dup_boxed (value) : g_value_get_boxed (value);
}

/* Lets go of what a pointer field of the property's type owns. */
static void
drop_pointer (const MsProp *p, gpointer *field)
{
  gpointer old = g_steal_pointer (field);
  if (!old)
    return;
  switch (p->type) {
  case G_TYPE_STRING: g_free (old); break;
  case G_TYPE_OBJECT: g_object_unref (old); break;
  default: g_boxed_free (type_of (p), old);
  }
}

static gboolean
same_pointer (const MsProp *p, gconstpointer old, gconstpointer now)
{
  if (p->type == G_TYPE_STRING)
    return g_strcmp0 (old, now) == 0;
  if (type_of (p) == G_TYPE_STRV && old && now)
    return g_strv_equal (old, now);
  return old == now;
}

/* A pointer field takes the value's string, reference or copy; FALSE when
 * it held the same already. */
static gboolean
put_pointer (gpointer *field, const MsProp *p, const GValue *value)
{
  if (same_pointer (p, *field, pointer_of (value, FALSE)))
    return FALSE;
  drop_pointer (p, field);
  *field = pointer_of (value, TRUE);
  return TRUE;
}

/* The value into the field; FALSE when it held the same already. */
static gboolean
put_field (gpointer self, const MsProp *p, const GValue *value)
{
  gpointer field = G_STRUCT_MEMBER_P (self, p->offset);
  switch (p->type) {
#define PUT(ctype, getter)                                                                         \
  if (*(ctype *) field == (ctype) getter (value))                                                  \
    return FALSE;                                                                                  \
  *(ctype *) field = (ctype) getter (value);                                                       \
  return TRUE
  case G_TYPE_BOOLEAN: PUT (gboolean, g_value_get_boolean);
  case G_TYPE_INT: PUT (int, g_value_get_int);
  case G_TYPE_UINT: PUT (guint, g_value_get_uint);
  case G_TYPE_UINT64: PUT (guint64, g_value_get_uint64);
  case G_TYPE_DOUBLE: PUT (double, g_value_get_double);
  case G_TYPE_ENUM: PUT (int, g_value_get_enum);
#undef PUT
  default: return put_pointer (field, p, value);
  }
}

/* The class's C setter with the value, called as its type takes it. */
static void
call_setter (gpointer self, const MsProp *p, const GValue *value)
{
  switch (p->type) {
  case G_TYPE_BOOLEAN:
    ((void (*) (gpointer, gboolean)) p->setter) (self, g_value_get_boolean (value));
    break;
  case G_TYPE_INT: ((void (*) (gpointer, int)) p->setter) (self, g_value_get_int (value)); break;
  case G_TYPE_ENUM: ((void (*) (gpointer, int)) p->setter) (self, g_value_get_enum (value)); break;
  case G_TYPE_UINT:
    ((void (*) (gpointer, guint)) p->setter) (self, g_value_get_uint (value));
    break;
  case G_TYPE_DOUBLE:
    ((void (*) (gpointer, double)) p->setter) (self, g_value_get_double (value));
    break;
  default: ((void (*) (gpointer, gconstpointer)) p->setter) (self, pointer_of (value, FALSE));
  }
}

/* What the class's C getter returns, into value. */
static void
call_getter (gpointer self, const MsProp *p, GValue *value)
{
  switch (p->type) {
  case G_TYPE_BOOLEAN:
    g_value_set_boolean (value, ((gboolean (*) (gpointer)) p->getter) (self));
    break;
  case G_TYPE_INT: g_value_set_int (value, ((int (*) (gpointer)) p->getter) (self)); break;
  case G_TYPE_ENUM: g_value_set_enum (value, ((int (*) (gpointer)) p->getter) (self)); break;
  case G_TYPE_UINT: g_value_set_uint (value, ((guint (*) (gpointer)) p->getter) (self)); break;
  case G_TYPE_DOUBLE: g_value_set_double (value, ((double (*) (gpointer)) p->getter) (self)); break;
  case G_TYPE_STRING:
    g_value_set_string (value, ((const char *(*) (gpointer)) p->getter) (self));
    break;
  case G_TYPE_OBJECT:
    g_value_set_object (value, ((gpointer (*) (gpointer)) p->getter) (self));
    break;
  default: g_value_set_boxed (value, ((gpointer (*) (gpointer)) p->getter) (self));
  }
}

static void
ms_props_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  const MsProp *p = entry_of (pspec);
  if (!p)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  else if (p->getter)
    call_getter (object, p, value);
  else
    get_field (object, p, value);
}

static void
ms_props_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  const MsProp *p = entry_of (pspec);
  if (!p)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  else if (p->setter)
    call_setter (object, p, value);
  else {
    gboolean differs = put_field (object, p, value);
    if (p->changed && (differs || p->always_changed))
      p->changed (object);
    /* Set once, while the object is made: nobody can be following it. */
    if (differs && !(pspec->flags & G_PARAM_CONSTRUCT_ONLY))
      g_object_notify_by_pspec (object, pspec);
  }
}

void
ms_props_install (GObjectClass *klass, const MsProp *table, GParamSpec **pspecs, guint n_props)
{
  for (guint i = 1; i < n_props; i++) {
    pspecs[i] = make_pspec (&table[i]);
    g_param_spec_set_qdata (pspecs[i], entry_quark (), (gpointer) &table[i]);
  }
  klass->get_property = ms_props_get_property;
  klass->set_property = ms_props_set_property;
  g_object_class_install_properties (klass, n_props, pspecs);
}

void
ms_props_clear (GObject *object)
{
  guint n;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n);
  for (guint i = 0; i < n; i++) {
    const MsProp *p = entry_of (pspecs[i]);
    gboolean owns = p && (p->type == G_TYPE_STRING || p->type == G_TYPE_OBJECT ||
                          p->type == G_TYPE_BOXED);
    if (owns && p->offset != MS_PROP_NO_FIELD)
      drop_pointer (p, G_STRUCT_MEMBER_P (object, p->offset));
  }
}

gboolean
ms_props_set_string (gpointer object, char **field, const char *value, GParamSpec *pspec)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (object, pspec);
  return TRUE;
}
