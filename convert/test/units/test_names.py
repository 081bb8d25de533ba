# SPDX-License-Identifier: GPL-2.0
"""Unit tests of iterconv/names.py: a core patch's new names looked for
across a small tree, as a git tree and not; the statics renamed, the
rest refused."""

import os
import subprocess
import unittest

from iterconv import kbuild, names
from scratch import TreeCase, write_tree
from test_kbuild import DATAGRAM, TREE


class Names(TreeCase):
    TREE = TREE

    def git(self):
        """The tree as a git tree, its files tracked."""
        for args in (["init", "-q"], ["add", "-A"]):
            subprocess.run(["git", "-C", self.tree] + args, check=True,
                           env=kbuild.git_env())

    def test_datagram(self):
        """The static function is renamed, in its definition, its use and
        its comment; the member of the same name is not."""
        for git in (False, True):
            if git:
                self.git()
            found = names.scan(self.tree, ("simple_copy_to_iter",
                                           "simple_copy_from_iter"),
                               skip={"fs/libfs.c", "include/linux/fs.h"})
            self.assertEqual(found, {"net/core/datagram.c": {
                "simple_copy_to_iter": "datagram_simple_copy_to_iter"}})
        new = names.rename(DATAGRAM, found["net/core/datagram.c"])
        self.assertEqual(new.count("datagram_simple_copy_to_iter"), 3)
        self.assertIn("ops.simple_copy_to_iter = NULL;", new)

    def test_rename_realigns(self):
        """A declaration's lines that line up under the parenthesis the
        rename moved are lined up under it again (checkpatch --strict);
        a call's, whose parenthesis stays, are left as they were."""
        text = ("DECLARE(static size_t f(const void *addr,\n"
                "\t\t\tsize_t bytes));\n"
                "static size_t f(const void *addr, size_t bytes,\n"
                "\t\tvoid *data, struct iov_iter *i)\n{\n"
                "\tn = CALL(cb, f,\n\t\t x, (y),\n\t\t z);\n}\n")
        self.assertEqual(names.rename(text, {"f": "longer_f"}), (
            "DECLARE(static size_t longer_f(const void *addr,\n"
            "\t\t\t       size_t bytes));\n"
            "static size_t longer_f(const void *addr, size_t bytes,\n"
            "\t\t       void *data, struct iov_iter *i)\n{\n"
            "\tn = CALL(cb, longer_f,\n\t\t x, (y),\n\t\t z);\n}\n"))

    def test_clash(self):
        """A global of the name, or a header's static inline, is refused,
        saying where; a member or a local is no clash for a function, but
        a called member is for a function-like macro."""
        for rel, text, line in (
                ("drivers/a.c", "int x;\nint simple_copy_to_iter(void)\n"
                 "{\n\treturn 0;\n}\n", 2),
                ("include/b.h", "static inline int simple_copy_to_iter(void)"
                 "\n{\n\treturn 0;\n}\n", 1),
                ("drivers/c.c", "#define simple_copy_to_iter(x) (x)\n", 1)):
            with self.subTest(rel=rel):
                write_tree(self.tree, ((rel, text),))
                with self.assertRaisesRegex(
                        names.Clash, "^simple_copy_to_iter is the tree's "
                        "already, at %s:%d, " % (rel, line)):
                    names.scan(self.tree, ("simple_copy_to_iter",))
                os.remove(os.path.join(self.tree, rel))
        self.assertEqual(names.scan(self.tree, ("get_iter",)), {})
        with self.assertRaisesRegex(names.Clash, "drivers/misc/y.c:4"):
            names.scan(self.tree, ("get_iter",), macros=("get_iter",))
        # A local of the name: none for a function, nor for a macro but
        # where it is called, or #defined.
        write_tree(self.tree, (("drivers/misc/y.c", "int f(void)\n{\n"
                                "\tint get_iter = 0;\n\n"
                                "\treturn get_iter;\n}\n"),))
        for macros in ((), ("get_iter",)):
            self.assertEqual(names.scan(self.tree, ("get_iter",), macros), {})
        for text in ("#define get_iter 1\n", "\tx = get_iter (1);\n"):
            write_tree(self.tree, (("drivers/misc/y.c", text),))
            with self.assertRaisesRegex(names.Clash, "drivers/misc/y.c:1"):
                names.scan(self.tree, ("get_iter",), ("get_iter",))

    def test_member_declared(self):
        """A member declared in a struct's body is a member: not renamed,
        as its uses (o->get_iter(1)) are not, and the file builds.  For
        a function-like macro, that member's call is a clash the rename
        would leave: refused, static or not."""
        text = ("struct ops {\n\tint (*get_iter)(int);\n};\n\n"
                "static int get_iter(int x)\n{\n\treturn x;\n}\n\n"
                "int f(struct ops *o)\n{\n\treturn o->get_iter(1) + "
                "get_iter(2);\n}\n")
        new = names.rename(text, {"get_iter": "y_get_iter"})
        self.assertIn("\tint (*get_iter)(int);", new)
        self.assertIn("o->get_iter(1) + y_get_iter(2)", new)
        self.assertIn("static int y_get_iter(int x)", new)
        write_tree(self.tree, (("drivers/misc/y.c", text),))
        self.assertEqual(names.scan(self.tree, ("get_iter",)),
                         {"drivers/misc/y.c": {"get_iter": "y_get_iter"}})
        with self.assertRaisesRegex(names.Clash, "drivers/misc/y.c:12"):
            names.scan(self.tree, ("get_iter",), ("get_iter",))

    def test_strings_includes(self):
        """A string's text and an #include's file name are not the
        static's: left as they are."""
        text = ('#include "get_iter.h"\n\nstatic int get_iter(void)\n{\n'
                '\tpr_info("get_iter: %d\\n", \'"\');\n'
                '\treturn 0; /* get_iter "x */\n}\n')
        self.assertEqual(names.rename(text, {"get_iter": "y_get_iter"}),
                         text.replace("static int get_iter",
                                      "static int y_get_iter").replace(
                                          "/* get_iter", "/* y_get_iter"))

    def test_preprocessor_branches(self):
        """A function opened in both branches of an #if is one opening:
        the static after it is at file scope, and renamed."""
        text = ("#ifdef A\nint g(void) {\n#else\nint g(int a) {\n#endif\n"
                "\treturn 0;\n}\n\nstatic int get_iter(void)\n{\n"
                "\treturn 0;\n}\n")
        write_tree(self.tree, (("drivers/misc/y.c", text),))
        self.assertEqual(names.scan(self.tree, ("get_iter",)),
                         {"drivers/misc/y.c": {"get_iter": "y_get_iter"}})
        code = text.replace("static int get_iter", "int get_iter")
        write_tree(self.tree, (("drivers/misc/y.c", code),))
        with self.assertRaisesRegex(names.Clash, "drivers/misc/y.c:9"):
            names.scan(self.tree, ("get_iter",))

    def test_new_name_taken(self):
        write_tree(self.tree, (("lib/z.c", "int datagram_simple_copy_to_iter"
                                ";\n"),))
        with self.assertRaisesRegex(names.Clash, "lib/z.c"):
            names.scan(self.tree, ("simple_copy_to_iter",))


if __name__ == "__main__":
    unittest.main()
