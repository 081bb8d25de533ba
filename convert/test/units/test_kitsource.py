# SPDX-License-Identifier: GPL-2.0
"""Unit tests of iterconv/kitsource.py: upstream mode's core patches
take the helpers' definitions from common/iterkit.h."""

import re
import unittest

from iterconv import kitsource, series

HEADER = """#define KIT_X 1
static inline int kit_helper(int a)
{
	/* a comment: } */
	return a + 1;
}

static inline int kit_outer(int a)
{
	return kit_helper(a) * 2;
}

#define ONE(x)	((x) + 1)
#define TWO(name)			\\
static int name##_two(void)		\\
{					\\
	return 2;			\\
}
"""


class KitSource(unittest.TestCase):
    def test_body_and_define(self):
        self.assertEqual(kitsource.body(HEADER, "kit_outer"),
                         "{\n\treturn kit_helper(a) * 2;\n}")
        self.assertIn("/* a comment: } */\n\treturn a + 1;\n}",
                      kitsource.body(HEADER, "kit_helper"))
        self.assertEqual(kitsource.define(HEADER, "ONE"),
                         "#define ONE(x)\t((x) + 1)")
        self.assertTrue(kitsource.define(HEADER, "TWO").endswith(
            "return 2;\t\t\t\\\n}"))
        with self.assertRaises(LookupError):
            kitsource.body(HEADER, "kit_none")
        with self.assertRaises(LookupError):
            kitsource.define(HEADER, "NONE")

    def test_fill(self):
        out = kitsource.fill("int outer(int a)\n@body kit_outer@\n"
                             "@define TWO@\n", HEADER)
        self.assertEqual(out.split("\n")[:4], [
            "int outer(int a)", "{", "\treturn helper(a) * 2;", "}"])
        self.assertIn("static int name##_two(void)", out)
        # what would name the kit in a tree's patch is an error
        with self.assertRaises(ValueError):
            kitsource.fill("@define KIT_X@\n", HEADER)
        with self.assertRaises(ValueError):
            kitsource.fill('#include "iterkit.h"\n', HEADER)

    def test_core_templates(self):
        """Every template of series.py fills from the kit's own
        iterkit.h, and what it does is iterkit.h's: a change there is a
        change in the core patch."""
        with open(kitsource.HEADER) as f:
            header = f.read()
        for name in ("SIMPLE_DEF", "VFS_DECL", "VFS_DEF", "ITER_DEF"):
            out = kitsource.fill(getattr(series, name), header)
            self.assertIsNone(kitsource.MARK.search(out), name)
            self.assertNotRegex(out, r"kit_|iterkit|compat\.h")
        vfs = kitsource.fill(series.VFS_DEF, header)
        self.assertIn("\t\tsize_t len = iter_seg_len(iter);\n", vfs)
        self.assertIn("\treturn vfs_rw_iter(iocb, to, read, NULL);\n", vfs)
        self.assertIn("return -EAGAIN;", vfs)
        self.assertEqual(len(re.findall(r"^#define \w+\(", kitsource.fill(
            series.VFS_DECL + series.ITER_DEF, header), re.M)), 4)
        changed = header.replace("return -EAGAIN;", "return -EBUSY;", 1)
        self.assertIn("return -EBUSY;", kitsource.fill(series.VFS_DEF,
                                                       changed))


if __name__ == "__main__":
    unittest.main()
