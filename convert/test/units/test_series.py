# SPDX-License-Identifier: GPL-2.0
"""Unit tests of iterconv/series.py: the series' patches, planned from
a module's outputs against a small tree, and written as git
format-patch writes them."""

import os
import re
import shutil
import subprocess
import tempfile
import types
import unittest
from unittest import mock

from iterconv import series
from iterconv.rewrite import Rewrite
from scratch import write_tree

FS_H = """#ifndef _LINUX_FS_H
#define _LINUX_FS_H
extern ssize_t vfs_read(struct file *, char __user *, size_t, loff_t *);
extern ssize_t vfs_write(struct file *, const char __user *, size_t, loff_t *);
extern ssize_t simple_write_to_buffer(void *to, size_t available, loff_t *ppos,
		const void __user *from, size_t count);
#endif
"""
LIBFS_C = """#include <linux/fs.h>
#include <linux/slab.h>

EXPORT_SYMBOL(simple_write_to_buffer);
"""
ORIG = """#include <linux/fs.h>

static ssize_t a_read(struct file *f, char __user *b, size_t n, loff_t *p)
{
	return simple_read_from_buffer(b, n, p, "a", 1);
}
"""
DEBUGFS = {
    "fs/debugfs/internal.h": "extern const struct file_operations "
    "debugfs_full_proxy_file_operations;\nenum {\n\tHAS_IOCTL = 16\n};\n",
    "fs/debugfs/file.c": """			if (ops->poll)
				methods |= HAS_POLL;
FULL_PROXY_FUNC(unlocked_ioctl, long, filp,
		ARGS(filp, cmd, arg), HAS_IOCTL, -ENOTTY);
		} else if (filp->f_op != &debugfs_full_proxy_file_operations) {
const struct file_operations debugfs_full_proxy_file_operations = {
	.open = full_proxy_open_regular,
};
""",
    "fs/debugfs/inode.c": """{
	return __debugfs_create_file(name, mode, parent, data, aux,
				&debugfs_full_proxy_file_operations,
				fops);
}
"""}
OUT = """#include <linux/fs.h>
#include <linux/uio.h>

#include "iterkit.h"

static ssize_t a_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	return simple_copy_to_iter("a", &iocb->ki_pos, 1, to);
}
"""


# What Rewrite.includes() reads of a File, in --wrap.
WRAPPED = types.SimpleNamespace(mode="wrap", reads={}, writes={})


class File:
    def __init__(self, path, text, out, lines=()):
        self.path, self.text, self.out = path, text, out
        self.refusal, self.untouched, self.build = None, None, []
        self.lines = list(lines)

    def report(self):
        return self.lines


class Module:
    def __init__(self, files):
        self.files, self.headers = files, []


class Series(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.tree = self.tmp.name
        write_tree(self.tree, (
            ("include/linux/fs.h", FS_H),
            ("include/linux/uio.h", "#ifndef U\n#endif\n"),
            ("fs/libfs.c", LIBFS_C),
            ("fs/read_write.c", "#include <linux/uio.h>\n"),
            ("drivers/char/a.c", ORIG),
            *DEBUGFS.items(),
            ("drivers/char/b.c", ORIG.replace("a_", "b_")),
            ("drivers/misc/two/x.c", ORIG.replace("a_", "x_")),
            ("drivers/misc/two/Makefile",
             "obj-m += twin.o\ntwin-y := x.o \\\n\ty.o\n")))

    def tearDown(self):
        self.tmp.cleanup()

    def file(self, rel, out=OUT, lines=()):
        return File(os.path.join(self.tree, rel), ORIG, out, lines)

    def test_strip_kit(self):
        self.assertEqual(series.strip_kit(OUT),
                         OUT.replace('#include "iterkit.h"\n\n', ""))
        self.assertNotIn("\n\n\n", series.strip_kit(OUT))
        self.assertEqual(series.strip_kit('#include "debugfs_iter.h"\n'
                                          '#include "compat.h"\nx\n'), "x\n")
        # Each file as Rewrite.includes() leaves it: with the original,
        # strip_kit gives the original back.
        code = "ssize_t f(void) { return FOPS_READ_ITER_HELPER(x); }\n"
        for old in (
                # Set apart, in a file with two blank lines elsewhere
                # (apm-emulation.c): they stay.
                "#include <linux/delay.h>\n\n/*\n * x\n */\n\n\n",
                # Code right under the system headers.
                "#include <a.h>\n",
                # Under a local header (no blank line added), two after.
                '#include <a.h>\n#include "l.h"\n\n\n'):
            new = Rewrite.includes(WRAPPED, old + code)
            self.assertIn('#include "iterkit.h"', new)
            self.assertEqual(series.strip_kit(new), old + code)

    def test_core_needed(self):
        need = series.core_needed(self.tree, [OUT])
        self.assertEqual([c["subject"] for c in need], [
            "fs: add simple_copy_to_iter() and simple_copy_from_iter()"])
        self.assertEqual(series.core_needed(self.tree, [ORIG]), [])
        with open(os.path.join(self.tree, "include/linux/fs.h"), "a") as f:
            f.write("ssize_t simple_copy_to_iter(void);\n"
                    "ssize_t simple_copy_from_iter(void);\n")
        self.assertEqual(series.core_needed(self.tree, [OUT]), [])
        # debugfs' proxy: by the report's line for a fops, not by a name
        line = ("  fops a_fops: checked: debugfs_create_file() (a.c:9): "
                "through the full proxy's read_iter/write_iter")
        self.assertEqual([c["subject"] for c in series.core_needed(
            self.tree, [ORIG], line)], [
            "debugfs: let the full proxy pass on read_iter and write_iter"])
        self.assertEqual(series.core_needed(self.tree, [ORIG], line.replace(
            "debugfs_create_file()", "misc device")), [])

    def test_core_edits(self):
        for c in series.CORE:
            for rel, edit in c["edits"].items():
                with open(os.path.join(self.tree, rel)) as f:
                    old = f.read()
                new = edit(old)
                self.assertTrue(new and new != old, (c["subject"], rel))
                for name in c["names"]:
                    if rel == c["has"]:
                        self.assertRegex(new, r"\b%s\b" % name)
        core = {c["subject"].split(":")[0]: c for c in series.CORE}
        new = core["debugfs"]["edits"]["fs/debugfs/file.c"](
            DEBUGFS["fs/debugfs/file.c"])
        self.assertIn("methods |= HAS_READ_ITER;", new)
        self.assertIn("FULL_PROXY_FUNC(read_iter,", new)
        self.assertIn(".write_iter = full_proxy_write_iter,", new)
        self.assertIn("&debugfs_full_proxy_iter_file_operations) {", new)
        libfs = series.CORE[0]["edits"]["fs/libfs.c"](LIBFS_C)
        self.assertIn("#include <linux/slab.h>\n#include <linux/uio.h>\n",
                      libfs)

    def test_groups_and_prefix(self):
        g = series.groups(self.tree, [
            os.path.join(self.tree, p) for p in
            ("drivers/char/a.c", "drivers/misc/two/x.c", "drivers/char/b.c")])
        self.assertEqual(list(g.items()), [
            (("drivers/char", "a"), ["drivers/char/a.c"]),
            (("drivers/misc/two", "twin"), ["drivers/misc/two/x.c"]),
            (("drivers/char", "b"), ["drivers/char/b.c"])])
        self.assertEqual(series.prefix(self.tree, ["drivers/char/a.c"], "a"),
                         "char: a")
        self.assertEqual(series.prefix(self.tree, ["drivers/misc/two/x.c"],
                                       "twin"), "two: twin")

    def test_groups_kbuild_names(self):
        """A module's name may have hyphens (mei-me-objs); a list that
        names no module (subdir-ccflags-y) is not one; dev.c is not
        tpm-dev.o."""
        d = os.path.join(self.tree, "drivers/misc/mei")
        os.makedirs(d)
        with open(os.path.join(d, "Makefile"), "w") as f:
            f.write("subdir-ccflags-y += -I$(src) me.o\n"
                    "mei-me-objs := pci-me.o \\\n\tme.o\n"
                    "tpm-y := tpm-dev.o\n")
        g = series.groups(self.tree, [os.path.join(d, c) for c in
                                      ("me.c", "pci-me.c", "dev.c")])
        self.assertEqual(list(g), [("drivers/misc/mei", "mei-me"),
                                   ("drivers/misc/mei", "dev")])

    def test_plan(self):
        left = self.file("drivers/char/b.c", OUT.replace(
            "simple_copy_to_iter", "kstrtou32_from_iter"))
        patches, out = series.plan(Module([
            self.file("drivers/char/a.c", lines=[
                "  a_read: native (simple-buffer)",
                "  for callers: a_read_iter: one call per readv()"]),
            left]), self.tree)
        self.assertEqual(out, [(left.path, "needs kstrtou32_from_iter, which "
                                "no core patch of upstream mode provides "
                                "yet")])
        self.assertEqual([p[0] for p in patches], [
            "fs: add simple_copy_to_iter() and simple_copy_from_iter()",
            "char: a: convert to read/write iterators"])
        self.assertEqual(sorted(patches[0][2]), ["fs/libfs.c",
                                                 "include/linux/fs.h"])
        self.assertIn("- a_read_iter: one call per readv()", patches[1][1])
        self.assertNotIn("iterkit.h", patches[1][2]["drivers/char/a.c"][1])

    def test_write(self):
        patches, _ = series.plan(Module([self.file("drivers/char/a.c")]),
                                 self.tree)
        paths = series.write(patches, os.path.join(self.tree, "out"),
                             ("A U Thor", "a@example.org"))
        self.assertEqual([os.path.basename(p) for p in paths], [
            "0001-fs-add-simple_copy_to_iter-and-simple_copy_from_iter"
            ".patch", "0002-char-a-convert-to-read-write-iterators.patch"])
        with open(paths[1]) as f:
            text = f.read()
        self.assertIn("Subject: [PATCH 2/2] char: a: convert to read/write "
                      "iterators\n", text)
        self.assertIn("Signed-off-by: A U Thor <a@example.org>\n", text)
        self.assertNotRegex(text, r'\+#include "iterkit\.h"')
        # The series applies to the tree, in order.
        for p in paths:
            subprocess.run(["git", "apply", "--check", p], cwd=self.tree,
                           check=True)
            subprocess.run(["git", "apply", p], cwd=self.tree, check=True)
        with open(os.path.join(self.tree, "include/linux/fs.h")) as f:
            self.assertTrue(re.search(r"simple_copy_to_iter", f.read()))

    def test_identity(self):
        """The user's name and address where git has them, from the
        environment or git config; else the placeholder, said to be
        one; and write() commits with no identity in git config."""
        cfg = os.path.join(self.tree, "gitconfig")
        with open(cfg, "w") as f:
            f.write("[user]\n\tname = C Onfig\n\temail = c@example.org\n")
        keep = ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
                "GIT_COMMITTER_EMAIL", "EMAIL", "GIT_CONFIG_GLOBAL",
                "GIT_CONFIG_NOSYSTEM")
        old = {k: os.environ.pop(k) for k in keep if k in os.environ}
        try:
            os.environ.update(GIT_CONFIG_GLOBAL=cfg, GIT_CONFIG_NOSYSTEM="1")
            self.assertEqual(series.identity(self.tree),
                             ("C Onfig", "c@example.org", True))
            os.environ.update(GIT_AUTHOR_NAME="E Nv",
                              GIT_AUTHOR_EMAIL="e@example.org")
            self.assertEqual(series.identity(self.tree),
                             ("E Nv", "e@example.org", True))
            for k in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL"):
                del os.environ[k]
            os.environ["GIT_CONFIG_GLOBAL"] = os.devnull
            self.assertEqual(series.identity(self.tree),
                             series.PLACEHOLDER + (False,))
            patches, _ = series.plan(Module([self.file("drivers/char/a.c")]),
                                     self.tree)
            paths = series.write(patches, os.path.join(self.tree, "out"))
            with open(paths[0]) as f:
                text = f.read()
            self.assertIn("\nFrom: Your Name <you@example.invalid>\n", text)
            self.assertIn("\nSigned-off-by: Your Name <you@example.invalid>"
                          "\n", text)
        finally:
            for k in keep:
                os.environ.pop(k, None)
            os.environ.update(old)

    def test_core_patches_chain(self):
        """Two core patches that edit one file (fs.h): the second is
        against what the first left, so that the series keeps both."""
        out = OUT + "\nFOPS_READ_ITER_HELPER(a_read);\n"
        patches, _ = series.plan(Module([self.file("drivers/char/a.c", out)]),
                                 self.tree)
        self.assertEqual(
            [sorted(p.edits) for p in patches][:2],
            [["fs/libfs.c", "include/linux/fs.h"],
             ["fs/read_write.c", "include/linux/fs.h"]])
        paths = series.write(patches, os.path.join(self.tree, "out"),
                             ("A U Thor", "a@example.org"))
        for p in paths:
            subprocess.run(["git", "apply", p], cwd=self.tree, check=True)
        with open(os.path.join(self.tree, "include/linux/fs.h")) as f:
            fs = f.read()
        self.assertIn("simple_copy_to_iter", fs)
        self.assertIn("FOPS_READ_ITER_HELPER", fs)

    def test_header_once(self):
        """A header the call changed goes with the module that includes
        it, in one patch of the series, not in every module's."""
        hdr = os.path.join(self.tree, "drivers/misc/two/x.h")
        with open(hdr, "w") as f:
            f.write("ssize_t x_read(void);\n")
        x = File(os.path.join(self.tree, "drivers/misc/two/x.c"),
                 '#include "x.h"\n' + ORIG.replace("a_", "x_"),
                 '#include "x.h"\n' + OUT.replace("a_", "x_"))
        mod = Module([self.file("drivers/char/a.c"), x])
        mod.headers = [File(hdr, "ssize_t x_read(void);\n",
                            "ssize_t x_read_iter(void);\n")]
        patches, _ = series.plan(mod, self.tree)
        with_h = [p.edits for p in patches
                  if "drivers/misc/two/x.h" in p.edits]
        self.assertEqual(len(with_h), 1)
        self.assertIn("drivers/misc/two/x.c", with_h[0])

    def test_header_no_one_includes(self):
        """A changed header that no file of the series includes is left
        out, with the reason, even where every file is left out too."""
        hdr = os.path.join(self.tree, "drivers/char/h.h")
        mod = Module([self.file("drivers/char/a.c")])
        mod.headers = [File(hdr, "ssize_t h_read(void);\n",
                            "ssize_t h_read_iter(void);\n")]
        patches, left = series.plan(mod, self.tree)
        self.assertEqual(left, [(hdr, "no file of the series includes it")])
        self.assertFalse(any("drivers/char/h.h" in p.edits
                             for p in patches))
        mod.files = []
        self.assertEqual(series.plan(mod, self.tree)[1], left)

    def test_driver_on_a_core_file(self):
        """A file that a core patch changes too (fs/libfs.c's
        simple_dir_operations): its own patch is made on the core
        patch's, and keeps it."""
        libfs = LIBFS_C + "\n" * 4 + "const struct file_operations d = {\n" \
            "\t.read = generic_read_dir,\n};\n"
        path = os.path.join(self.tree, "fs/libfs.c")
        with open(path, "w") as f:
            f.write(libfs)
        lib = File(path, libfs, libfs.replace(".read = generic_read_dir",
                                              ".read_iter = generic_dir_iter"))
        patches, left = series.plan(
            Module([self.file("drivers/char/a.c"), lib]), self.tree)
        self.assertEqual(left, [])
        paths = series.write(patches, os.path.join(self.tree, "out"),
                             ("A U Thor", "a@example.org"))
        for p in paths:
            subprocess.run(["git", "apply", p], cwd=self.tree, check=True)
        with open(path) as f:
            text = f.read()
        self.assertIn("simple_copy_to_iter", text)
        self.assertIn(".read_iter = generic_dir_iter", text)

    def test_module_clash(self):
        """A file whose changes clash with a core patch's takes its whole
        module out (its files name each other's functions), and the
        header that goes with that module; the rest of the series stays."""
        with open(os.path.join(self.tree, "fs/Makefile"), "w") as f:
            f.write("obj-m += both.o\nboth-y := libfs.o other.o\n")
        lib = File(os.path.join(self.tree, "fs/libfs.c"), LIBFS_C,
                   LIBFS_C.replace("EXPORT_SYMBOL(", "EXPORT_SYMBOL_GPL("))
        other = File(os.path.join(self.tree, "fs/other.c"),
                     '#include "o.h"\n' + ORIG, '#include "o.h"\n' + OUT)
        mod = Module([self.file("drivers/char/a.c"), lib, other])
        hdr = os.path.join(self.tree, "fs/o.h")
        mod.headers = [File(hdr, "int o;\n", "long o;\n")]
        patches, left = series.plan(mod, self.tree)
        self.assertEqual(left, [
            (lib.path, series.CORE_CLASH),
            (other.path, "left out with libfs.c, of its module, where a "
             "core patch changes the same lines"),
            (hdr, "no file of the series includes it")])
        touched = {r for p in patches for r in p.edits}
        self.assertIn("drivers/char/a.c", touched)
        self.assertNotIn("fs/other.c", touched)

    def test_header_clash(self):
        """A header whose changes clash with a core patch's takes the
        module that includes it out with it."""
        fs_h = "include/linux/fs.h"
        a = File(os.path.join(self.tree, "drivers/char/a.c"),
                 "#include <linux/fs.h>\n" + ORIG,
                 "#include <linux/fs.h>\n" + OUT)
        mod = Module([a])
        mod.headers = [File(os.path.join(self.tree, fs_h), FS_H,
                            FS_H.replace("#endif", "int x;\n#endif"))]
        patches, left = series.plan(mod, self.tree)
        self.assertEqual(left, [
            (mod.headers[0].path, series.CORE_CLASH),
            (a.path, "left out with fs.h, of its module, where a core patch "
             "changes the same lines")])
        self.assertEqual(len(patches), 1)	# the core patch alone

    def test_datagram(self):
        """Before the core patch adds simple_copy_to_iter() to fs.h,
        net/core/datagram.c's static of that name is renamed in a patch
        of its own; the core patch's objects are its own, datagram.o and
        read_write.o, which uses a name it adds, with the config that
        builds each; the series applies."""
        from test_kbuild import DATAGRAM
        write_tree(self.tree, (
            ("net/core/datagram.c", DATAGRAM),
            ("net/core/Makefile", "obj-y := datagram.o\n"),
            ("net/Makefile", "obj-y := core/\n"),
            ("fs/Makefile", "obj-y := libfs.o read_write.o\n"),
            ("fs/read_write.c", "int f(void)\n{\n\treturn "
             "simple_copy_from_iter(0, 0, 0, 0);\n}\n"),
            ("Kbuild", "obj-y += fs/\nobj-$(CONFIG_NET) += net/\n")))
        patches, left = series.plan(Module([self.file("drivers/char/a.c")]),
                                    self.tree)
        self.assertEqual(left, [])
        self.assertEqual([p.subject for p in patches], [
            "net: datagram: rename static simple_copy_to_iter()",
            "fs: add simple_copy_to_iter() and simple_copy_from_iter()",
            "char: a: convert to read/write iterators"])
        self.assertEqual(list(patches[0].edits), ["net/core/datagram.c"])
        self.assertEqual(" ".join(patches[0].body.split()), (
            'The patch "fs: add simple_copy_to_iter() and '
            'simple_copy_from_iter()" adds a global simple_copy_to_iter() '
            "to include/linux/fs.h, which datagram.c's static of the same "
            "name would conflict with wherever that header is included. "
            "Rename the static one datagram_simple_copy_to_iter(). No "
            "functional change."))
        self.assertEqual(patches[0].objects, ["net/core/datagram.o"])
        self.assertEqual(patches[1].objects, ["fs/libfs.o",
                                              "net/core/datagram.o",
                                              "fs/read_write.o"])
        self.assertEqual(series.configs(self.tree, patches[1].objects),
                         "fs/libfs.o, net/core/datagram.o (CONFIG_NET), "
                         "fs/read_write.o")
        self.assertEqual(series.unbuildable(self.tree, "net/core/datagram.o",
                                            {}),
                         "CONFIG_NET not set in the tree's .config")
        self.assertFalse(series.unbuildable(self.tree, "net/core/datagram.o",
                                            {"CONFIG_NET": "y"}))
        paths = series.write(patches, os.path.join(self.tree, "out"),
                             ("A U Thor", "a@example.org"))
        for p in paths:
            subprocess.run(["git", "apply", p], cwd=self.tree, check=True)
        with open(os.path.join(self.tree, "net/core/datagram.c")) as f:
            text = f.read()
        self.assertNotRegex(text, r"[^.]\bsimple_copy_to_iter\b")
        self.assertIn("\t\t\t\t   datagram_simple_copy_to_iter, NULL);",
                      text)

    def test_unbuildable_any(self):
        """An object that Kbuild reaches through any of several lists is
        built if one of them has its symbols set (iowarrior.o, whose
        drivers/usb/ CONFIG_USB_PHY names first, and CONFIG_USB too)."""
        write_tree(self.tree, (
            ("Kbuild", "obj-y += drivers/\n"),
            ("drivers/Makefile", "obj-$(CONFIG_USB_PHY) += usb/\n"
             "obj-$(CONFIG_USB) += usb/\n"),
            ("drivers/usb/Makefile", "obj-$(CONFIG_USB_IOWARRIOR) += "
             "iowarrior.o\n")))
        obj = "drivers/usb/iowarrior.o"
        on = {"CONFIG_USB": "y", "CONFIG_USB_IOWARRIOR": "m"}
        self.assertIsNone(series.unbuildable(self.tree, obj, on))
        self.assertEqual(series.unbuildable(self.tree, obj, {"CONFIG_USB":
                                                             "y"}),
                         "CONFIG_USB_IOWARRIOR not set in the tree's .config")
        self.assertEqual(series.configs(self.tree, [obj]), obj + " ("
                         "CONFIG_USB_IOWARRIOR CONFIG_USB_PHY, or "
                         "CONFIG_USB_IOWARRIOR CONFIG_USB)")

    def test_build_config(self):
        """Each patch's objects are made in the copy of the tree where its
        .config enables them; one it leaves out is said not built, and
        the patch's line says so."""
        from test_kbuild import DATAGRAM
        write_tree(self.tree, (
            ("net/core/datagram.c", DATAGRAM),
            ("net/core/Makefile", "obj-y := datagram.o\n"),
            ("net/Makefile", "obj-y := core/\n"),
            ("fs/Makefile", "obj-y := libfs.o read_write.o\n"),
            ("Kbuild", "obj-y += fs/\nobj-$(CONFIG_NET) += net/\n"),
            ("Module.symvers", ""), (".config", "CONFIG_X=y\n")))
        patches, _ = series.plan(Module([self.file("drivers/char/a.c")]),
                                 self.tree)
        paths = series.write(patches, os.path.join(self.tree, "out"),
                             ("A U Thor", "a@example.org"))
        made, run = [], subprocess.run
        os.makedirs(self.tree + "-copies")
        self.addCleanup(shutil.rmtree, self.tree + "-copies")

        def fake(cmd, *args, **kw):	# make: what it was asked for
            if cmd[0] != "make":
                return run(cmd, *args, **kw)
            made.append(cmd[-1])
            return subprocess.CompletedProcess(cmd, 0, "", "")

        def build(config):
            copy = os.path.join(tempfile.mkdtemp(dir=self.tree + "-copies"),
                                "tree")
            subprocess.run(["cp", "-a", self.tree, copy], check=True)
            with open(os.path.join(copy, ".config"), "w") as f:
                f.write(config)
            del made[:]
            with mock.patch.object(series, "scratch_tree",
                                   lambda tree: copy), \
                    mock.patch.object(series, "compile_module",
                                      lambda tree, files: {}), \
                    mock.patch.object(series.subprocess, "run", fake):
                return series.build_each(self.tree, patches, paths)
        out = build("CONFIG_X=y\n")
        self.assertEqual(made, ["fs/libfs.o"])
        self.assertEqual([(ok, lines, compiled) for _, ok, lines, compiled
                          in out[:2]], [
            (True, ["net/core/datagram.o: not built: CONFIG_NET not set in "
                    "the tree's .config"], False),
            (True, ["net/core/datagram.o: not built: CONFIG_NET not set in "
                    "the tree's .config"], True)])
        build("CONFIG_NET=y\n")
        self.assertEqual(made, ["net/core/datagram.o", "fs/libfs.o",
                                "net/core/datagram.o"])

    def test_header_only(self):
        """A core patch that changes a header only (uio.h's get_iter())
        has no object of its own: nothing is compiled for it, and its
        line says so, where it said "builds"."""
        out = OUT.replace('simple_copy_to_iter("a", &iocb->ki_pos, 1, to)',
                          "get_iter(c, to)")
        write_tree(self.tree, (("Module.symvers", ""), (".config", "")))
        patches, _ = series.plan(
            Module([self.file("drivers/char/a.c", out)]), self.tree)
        self.assertEqual([sorted(p.edits) for p in patches],
                         [["include/linux/uio.h"], ["drivers/char/a.c"]])
        self.assertEqual(patches[0].objects, [])
        paths = series.write(patches, os.path.join(self.tree, "out"),
                             ("A U Thor", "a@example.org"))
        compiled = []
        copy = os.path.join(self.tree + "-copy", "tree")
        self.addCleanup(shutil.rmtree, self.tree + "-copy")
        os.makedirs(os.path.dirname(copy))
        subprocess.run(["cp", "-a", self.tree, copy], check=True)
        with mock.patch.object(series, "scratch_tree", lambda tree: copy), \
                mock.patch.object(series, "compile_module",
                                  lambda tree, files: compiled.append(
                                      [os.path.relpath(f, copy)
                                       for f, _ in files]) or {}):
            built = series.build_each(self.tree, patches, paths)
        self.assertEqual(compiled, [["drivers/char/a.c"]])
        self.assertEqual([(ok, lines, made) for _, ok, lines, made in built],
                         [(True, ["no object of its own, nor one that uses "
                                  "its names: nothing compiled"], False),
                          (True, [], True)])

    def test_core_refused(self):
        """A global of the same name elsewhere refuses the core patch,
        saying where, and leaves out the modules that need it; the rest
        of the series stays."""
        write_tree(self.tree, (("lib/copy.c",
                                "int simple_copy_from_iter;\n"),))
        a = self.file("drivers/char/a.c")
        b = self.file("drivers/char/b.c", OUT.replace("a_", "b_") +
                      "\nFOPS_READ_ITER_HELPER(b);\n")
        b.out = b.out.replace("simple_copy_to_iter(\"a\", &iocb->ki_pos, 1, "
                              "to)", "0")
        patches, left = series.plan(Module([a, b]), self.tree)
        self.assertEqual(left, [(a.path, "needs fs: add simple_copy_to_iter() "
                                 "and simple_copy_from_iter(), which can't be "
                                 "added: simple_copy_from_iter is the tree's "
                                 "already, at lib/copy.c:1, and not as a .c "
                                 "file's static that a rename there settles")])
        self.assertEqual([p.subject for p in patches], [
            "fs: add helpers to run a legacy read/write as read_iter/"
            "write_iter", "char: b: convert to read/write iterators"])

    def test_merge3(self):
        base = "a\nb\nc\nd\ne\nf\ng\n"
        self.assertEqual(series.merge3(base, base.replace("a", "A"),
                                       base.replace("g", "G")),
                         "A\nb\nc\nd\ne\nf\nG\n")
        self.assertIsNone(series.merge3(base, base.replace("d", "1"),
                                        base.replace("d", "2")))

    def test_apply_under_a_repository(self):
        """A copy of the tree inside another repository (the kit's
        build/) gets the patch: git apply doesn't skip its files."""
        patches, _ = series.plan(Module([self.file("drivers/char/a.c")]),
                                 self.tree)
        paths = series.write(patches, os.path.join(self.tree, "out"),
                             ("A U Thor", "a@example.org"))
        with tempfile.TemporaryDirectory() as repo:
            subprocess.run(["git", "init", "-q", repo], check=True)
            copy = os.path.join(repo, "build", "tree")
            os.makedirs(os.path.dirname(copy))
            subprocess.run(["cp", "-a", self.tree, copy], check=True)
            # Nor do the user's GIT_DIR and GIT_WORK_TREE send it elsewhere.
            with mock.patch.dict(os.environ, {"GIT_DIR": repo + "/.git",
                                             "GIT_WORK_TREE": repo}):
                for p in paths:
                    self.assertEqual(series.apply(copy, p).returncode, 0)
            with open(os.path.join(copy, "include/linux/fs.h")) as f:
                self.assertIn("simple_copy_to_iter", f.read())

    def test_write_ignores_user_config(self):
        """A user's git settings don't change the series: no cover
        letter, a/ and b/ prefixes that git apply takes, no hook run."""
        cfg = os.path.join(self.tree, "gitconfig")
        hooks = os.path.join(self.tree, "hooks")
        os.makedirs(hooks)
        with open(os.path.join(hooks, "commit-msg"), "w") as f:
            f.write("#!/bin/sh\nexit 1\n")
        os.chmod(os.path.join(hooks, "commit-msg"), 0o755)
        with open(cfg, "w") as f:
            f.write("[format]\n\tcoverLetter = true\n\tnumbered = false\n"
                    "[diff]\n\tnoprefix = true\n"
                    "[core]\n\thooksPath = %s\n" % hooks)
        user = {"GIT_CONFIG_GLOBAL": cfg,
                "GIT_CONFIG_PARAMETERS": "'format.suffix=.txt'",
                "GIT_DIR": os.path.join(self.tree, "nowhere")}
        with mock.patch.dict(os.environ, user):
            patches, _ = series.plan(Module([self.file("drivers/char/a.c")]),
                                     self.tree)
            paths = series.write(patches, os.path.join(self.tree, "out"),
                                 ("A U Thor", "a@example.org"))
        self.assertEqual(len(paths), 2)
        self.assertFalse(any("cover-letter" in p for p in paths))
        self.assertTrue(all(p.endswith(".patch") for p in paths))
        with open(paths[1]) as f:
            text = f.read()
        self.assertIn("Subject: [PATCH 2/2] ", text)
        self.assertIn("\n--- a/drivers/char/a.c\n", text)
        for p in paths:
            subprocess.run(["git", "apply", p], cwd=self.tree, check=True)

    def test_run_reports_git_failure(self):
        """git failing to write the series is a report line, not a
        traceback."""
        lines = []
        saved = series.write

        def fail(*_args, **_kw):
            raise subprocess.CalledProcessError(
                128, ["git", "-C", "/tmp/x", "commit", "-q"],
                stderr="fatal: something\n")
        series.write = fail
        try:
            status = series.run(Module([self.file("drivers/char/a.c")]),
                                self.tree, os.path.join(self.tree, "out"),
                                lines.append)
        finally:
            series.write = saved
        self.assertEqual(status, 1)
        self.assertIn("series: not written: git commit failed: "
                      "fatal: something", lines)


if __name__ == "__main__":
    unittest.main()
