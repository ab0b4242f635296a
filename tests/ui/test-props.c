/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-props.c: properties described by a table (ms-props.h): what the
 * GParamSpecs say, when a change hook runs and a notify is sent, the C
 * setter and getter, and what ms_props_clear lets go of. */
#include "ms-props.h"

struct _TestThing {
  GObject parent_instance;
  int count;
  gboolean flag;
  char *text;
  GPtrArray *items;
  GObject *other;
  int made_with;
  int through_setter;
  guint changes;
};

#define TEST_TYPE_THING (test_thing_get_type ())
G_DECLARE_FINAL_TYPE (TestThing, test_thing, TEST, THING, GObject)
G_DEFINE_FINAL_TYPE (TestThing, test_thing, G_TYPE_OBJECT)

static void
count_change (gpointer self)
{
  TEST_THING (self)->changes++;
}

static void
set_doubled (TestThing *self, int value)
{
  self->through_setter = 2 * value;
}

static int
get_halved (TestThing *self)
{
  return self->through_setter / 2;
}

enum { PROP_0, PROP_COUNT, PROP_FLAG, PROP_TEXT, PROP_ITEMS, PROP_OTHER, PROP_MADE_WITH,
       PROP_VIA, N_PROPS };
static GParamSpec *props[N_PROPS];
static const MsProp prop_table[N_PROPS] = {
  [PROP_COUNT] = { "count", G_TYPE_INT, MS_PROP_FIELD (TestThing, count), -1, 9, 3,
                   .changed = count_change },
  [PROP_FLAG] = { "flag", G_TYPE_BOOLEAN, MS_PROP_FIELD (TestThing, flag), .def = TRUE,
                  .flags = G_PARAM_READABLE },
  [PROP_TEXT] = { "text", G_TYPE_STRING, MS_PROP_FIELD (TestThing, text) },
  [PROP_ITEMS] = { "items", G_TYPE_BOXED, MS_PROP_FIELD (TestThing, items),
                   .get_type = g_ptr_array_get_type, .changed = count_change,
                   .always_changed = TRUE },
  [PROP_OTHER] = { "other", G_TYPE_OBJECT, MS_PROP_FIELD (TestThing, other),
                   .get_type = g_object_get_type },
  [PROP_MADE_WITH] = { "made-with", G_TYPE_INT, MS_PROP_FIELD (TestThing, made_with), 0, 100, 0,
                       .flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY },
  [PROP_VIA] = { "via", G_TYPE_INT, MS_PROP_NO_FIELD, 0, 100, 0,
                 .setter = G_CALLBACK (set_doubled), .getter = G_CALLBACK (get_halved) },
};

static void
test_thing_finalize (GObject *object)
{
  ms_props_clear (object);
  G_OBJECT_CLASS (test_thing_parent_class)->finalize (object);
}

static void
test_thing_class_init (TestThingClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_thing_finalize;
  ms_props_install (G_OBJECT_CLASS (klass), prop_table, props, N_PROPS);
}

static void
test_thing_init (TestThing *self)
{
}

static void
count_notify (GObject *object, GParamSpec *pspec, guint *n)
{
  (*n)++;
}

static void
test_pspecs (void)
{
  g_assert_true (G_IS_PARAM_SPEC_INT (props[PROP_COUNT]));
  GParamSpecInt *count = G_PARAM_SPEC_INT (props[PROP_COUNT]);
  g_assert_cmpint (count->minimum, ==, -1);
  g_assert_cmpint (count->maximum, ==, 9);
  g_assert_cmpint (count->default_value, ==, 3);
  g_assert_true (props[PROP_COUNT]->flags & G_PARAM_EXPLICIT_NOTIFY);
  g_assert_true (props[PROP_COUNT]->flags & G_PARAM_WRITABLE);
  g_assert_false (props[PROP_FLAG]->flags & G_PARAM_WRITABLE);
  g_assert_true (G_PARAM_SPEC_BOOLEAN (props[PROP_FLAG])->default_value);
  g_assert_true (props[PROP_MADE_WITH]->flags & G_PARAM_CONSTRUCT_ONLY);
  g_assert_true (G_PARAM_SPEC_VALUE_TYPE (props[PROP_ITEMS]) == G_TYPE_PTR_ARRAY);
}

static void
test_change_and_notify (void)
{
  guint notified = 0;
  g_autoptr (TestThing) thing = g_object_new (TEST_TYPE_THING, "made-with", 7, NULL);
  g_signal_connect (thing, "notify", G_CALLBACK (count_notify), &notified);
  g_assert_cmpint (thing->made_with, ==, 7);
  g_object_set (thing, "count", 5, NULL);
  g_object_set (thing, "count", 5, NULL);
  g_assert_cmpint (thing->count, ==, 5);
  g_assert_cmpuint (thing->changes, ==, 1);
  g_assert_cmpuint (notified, ==, 1);

  g_object_set (thing, "text", "one", NULL);
  g_object_set (thing, "text", "one", NULL);
  g_assert_cmpstr (thing->text, ==, "one");
  g_assert_cmpuint (notified, ==, 2);
  g_autofree char *text = NULL;
  g_object_get (thing, "text", &text, NULL);
  g_assert_cmpstr (text, ==, "one");
  g_assert_true (text != thing->text);
}

/* An array set again counts as changed (its items may have), but says so
 * to its followers only when it is another array. */
static void
test_always_changed (void)
{
  guint notified = 0;
  g_autoptr (TestThing) thing = g_object_new (TEST_TYPE_THING, NULL);
  g_autoptr (GPtrArray) items = g_ptr_array_new ();
  g_signal_connect (thing, "notify::items", G_CALLBACK (count_notify), &notified);
  g_object_set (thing, "items", items, NULL);
  g_object_set (thing, "items", items, NULL);
  g_assert_true (thing->items == items);
  g_assert_cmpuint (thing->changes, ==, 2);
  g_assert_cmpuint (notified, ==, 1);
}

static void
test_setter_getter (void)
{
  g_autoptr (TestThing) thing = g_object_new (TEST_TYPE_THING, NULL);
  int via = 0;
  g_object_set (thing, "via", 21, NULL);
  g_assert_cmpint (thing->through_setter, ==, 42);
  g_object_get (thing, "via", &via, NULL);
  g_assert_cmpint (via, ==, 21);
}

static void
test_clear (void)
{
  TestThing *thing = g_object_new (TEST_TYPE_THING, "text", "kept", NULL);
  GObject *other = g_object_new (G_TYPE_OBJECT, NULL);
  g_object_add_weak_pointer (other, (gpointer *) &other);
  g_object_set (thing, "other", other, NULL);
  g_object_unref (other);
  g_assert_nonnull (other);
  ms_props_clear (G_OBJECT (thing));
  g_assert_null (other);
  g_assert_null (thing->text);
  g_object_unref (thing);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* The class, and with it props[], made before the tests read them. */
  g_type_class_ref (TEST_TYPE_THING);
  g_test_add_func ("/props/pspecs", test_pspecs);
  g_test_add_func ("/props/change-and-notify", test_change_and_notify);
  g_test_add_func ("/props/always-changed", test_always_changed);
  g_test_add_func ("/props/setter-getter", test_setter_getter);
  g_test_add_func ("/props/clear", test_clear);
  return g_test_run ();
}
