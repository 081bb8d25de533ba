# SPDX-License-Identifier: GPL-2.0
"""Unit tests of iterconv/kbuild.py: on a small tree (test_names' too),
the files that name a word, git tree or not; which config symbols build
an object; what a .config sets."""

import subprocess
import unittest

from iterconv import kbuild
from scratch import TreeCase, write_tree

# net/core/datagram.c's static of the name fs.h is to get, called once,
# and a member of the same name (no clash).
DATAGRAM = """#include <linux/pagemap.h>

/* simple_copy_to_iter() is the actor for a plain copy. */
static size_t simple_copy_to_iter(const void *addr, size_t bytes,
		void *data __always_unused, struct iov_iter *i)
{
	return copy_to_iter(addr, bytes, i);
}

int skb_copy_datagram_iter(const struct sk_buff *skb, int offset,
			   struct iov_iter *to, int len)
{
	ops.simple_copy_to_iter = NULL;
	return __skb_datagram_iter(skb, offset, to, len, false,
				   simple_copy_to_iter, NULL);
}
"""
TREE = (
    ("Kbuild", "obj-y\t\t\t+= fs/\nobj-y\t\t\t+= drivers/\n"
     "obj-$(CONFIG_NET)\t+= net/\n"),
    ("Makefile", "core-y := init/\n"),
    ("fs/Makefile", "obj-y := open.o \\\n\tlibfs.o\n"),
    ("fs/libfs.c", "#include <linux/fs.h>\n"),
    ("include/linux/fs.h", "#ifndef _LINUX_FS_H\n#endif\n"),
    ("net/Makefile", "obj-y := socket.o core/\n"),
    ("net/core/Makefile", "obj-y := sock.o datagram.o\n"),
    ("net/core/datagram.c", DATAGRAM),
    ("drivers/misc/Makefile", "obj-$(CONFIG_TWIN) += twin.o\n"
     "twin-y := x.o y.o\nobj-m += solo.o\n"),
    ("drivers/misc/y.c", "struct ops { int (*get_iter)(int); };\n"
     "int f(struct ops *o)\n{\n\treturn o->get_iter(1);\n}\n"),
    ("drivers/Makefile", "obj-$(CONFIG_MISC) += misc/\n"),
    ("Documentation/x.rst", "simple_copy_from_iter() in a text\n"),
)


class Kbuild(TreeCase):
    TREE = TREE

    def test_grep(self):
        """Whole words, in .c and .h files only, tools/ aside, git tree
        or not; in a git tree, its untracked and ignored files too
        (Debian's source has a .gitignore of /*: git init && git add .
        tracks nothing)."""
        write_tree(self.tree, (("tools/t.c", "int get_iter;\n"),))
        want = ["drivers/misc/y.c", "net/core/datagram.c"]
        words = ["simple_copy_to_iter", "simple_copy_from_iter", "get_iter"]
        self.assertEqual(kbuild.grep(self.tree, words), want)
        self.assertEqual(kbuild.grep(self.tree, ["simple_copy"]), [])
        for args in (["init", "-q"], ["add", "-A"]):
            subprocess.run(["git", "-C", self.tree] + args, check=True,
                           env=kbuild.git_env())
        write_tree(self.tree, (("untracked.c", "int get_iter;\n"),
                               ("lib/ignored.c", "int get_iter;\n"),
                               (".gitignore", "/*\n")))
        self.assertEqual(kbuild.grep(self.tree, words), sorted(
            want + ["untracked.c", "lib/ignored.c"]))

    def test_enabled_by(self):
        """The config symbols from an object's Makefile up to the top's
        Kbuild, through a composite module's list; None where a Makefile
        on the way doesn't name it."""
        for rel, want in (("fs/libfs.c", [[]]),
                          ("net/core/datagram.c", [["CONFIG_NET"]]),
                          ("drivers/misc/y.c", [["CONFIG_TWIN",
                                                 "CONFIG_MISC"]]),
                          ("drivers/misc/solo.c", [["CONFIG_MISC"]]),
                          ("drivers/misc/none.c", None),
                          ("fs/read_write.c", None)):
            self.assertEqual(kbuild.enabled_by(self.tree, rel), want, rel)

    def test_enabled_by_any(self):
        """A directory that several lists name is entered if any of them
        is on (drivers/Makefile names usb/ for CONFIG_USB_PHY, CONFIG_USB
        and more): each is a way to build the object; a list that is
        always on makes the others no matter."""
        write_tree(self.tree, (
            ("drivers/Makefile", "obj-$(CONFIG_PHY) += misc/\n"
             "obj-$(CONFIG_MISC) += misc/\n"),
            ("drivers/misc/Makefile", "obj-$(CONFIG_TWIN) += twin.o\n"
             "twin-y := x.o y.o\nobj-m += solo.o\nobj-$(CONFIG_S) += y.o\n"
             "obj-y += z.o\n")))
        self.assertEqual(kbuild.enabled_by(self.tree, "drivers/misc/y.c"), [
            ["CONFIG_TWIN", "CONFIG_PHY"], ["CONFIG_TWIN", "CONFIG_MISC"],
            ["CONFIG_S", "CONFIG_PHY"], ["CONFIG_S", "CONFIG_MISC"]])
        write_tree(self.tree, (("drivers/Makefile",
                                "obj-$(CONFIG_PHY) += misc/\n"
                                "obj-y += misc/\n"),))
        self.assertEqual(kbuild.enabled_by(self.tree, "drivers/misc/z.c"),
                         [[]])

    def test_config(self):
        write_tree(self.tree, ((".config", "CONFIG_NET=y\n# CONFIG_X is "
                                "not set\nCONFIG_M=m\n"),))
        self.assertEqual(kbuild.config(self.tree), {"CONFIG_NET": "y",
                                                    "CONFIG_M": "m"})


if __name__ == "__main__":
    unittest.main()
