# SPDX-License-Identifier: GPL-2.0
"""Unit tests of iterconv/registration.py: where a module's text hands a
fops on (Wiring), read without spatch."""

import unittest

from iterconv.registration import Fops, ModuleRegistration, Unknown, \
    Wiring
from iterconv.text import strip_comments

FOPS = "static const struct file_operations ops = { .read = r };\n"


def sites(body, name="ops", many=False):
    code = strip_comments(FOPS + body)
    return Wiring([("m.c", FOPS + body, code)], many).sites(name)


class Sites(unittest.TestCase):
    def test_misc_device(self):
        s, = sites("static struct miscdevice md = {\n"
                   "\t.minor = 1, .name = \"x\", .fops = &ops,\n};\n")
        self.assertEqual((s.kind, s.what, s.line),
                         ("misc", "struct miscdevice .fops", 3))

    def test_positional_member(self):
        s, = sites("static struct miscdevice md = { 1, \"x\", &ops };\n")
        self.assertEqual(s.kind, "misc")

    def test_debugfs_call(self):
        s, = sites("static void f(void)\n{\n\tdebugfs_create_file(\"x\", "
                   "0600, NULL, NULL, &ops);\n}\n")
        self.assertEqual((s.kind, s.where()), ("debugfs", "m.c:4"))
        self.assertTrue(s.movable)

    def test_through_macro(self):
        s, = sites("#define MK(n, f) debugfs_create_file(n, 0600, NULL, "
                   "NULL, f)\nstatic void g(void)\n{\n\tMK(\"x\", &ops);\n}\n")
        self.assertEqual(s.kind, "debugfs")
        self.assertFalse(s.movable)	# spatch can't rewrite a macro
        self.assertEqual(s.via, ["in MK()"])

    def test_through_function(self):
        s, = sites("static void add(const struct file_operations *f)\n{\n"
                   "\tproc_create(\"x\", 0, NULL, f);\n}\n"
                   "static void g(void)\n{\n\tadd(&ops);\n}\n")
        self.assertEqual((s.kind, s.via, s.reach),
                         ("proc", ["in add()"], {"ops"}))

    def test_table(self):
        s, = sites("struct ent { const char *n; "
                   "const struct file_operations *f; };\n"
                   "static struct ent t[] = { { \"x\", &ops } };\n"
                   "static void g(int i)\n{\n"
                   "\tcdev_init(NULL, t[i].f);\n}\n")
        self.assertEqual((s.kind, s.via), ("cdev", ["via ent.f"]))

    def test_inode(self):
        s, = sites("static void g(struct inode *i)\n{\n"
                   "\ti->i_fop = &ops;\n}\n")
        self.assertEqual(s.kind, "inode")

    def test_compared_is_not_handed_on(self):
        self.assertEqual(sites("static int g(struct file *f)\n{\n"
                               "\treturn f->f_op == &ops;\n}\n"), [])

    def test_unknown(self):
        for body, why in [
                ("static const void *g(void)\n{\n\treturn &ops;\n}\n",
                 "returned"),
                ("static void g(void)\n{\n\tfoo(&ops);\n}\n",
                 "handed to foo()"),
                ("EXPORT_SYMBOL(ops);\n", "exported")]:
            with self.assertRaisesRegex(Unknown, why):
                sites(body)


class ProxyIter(unittest.TestCase):
    """Upstream mode: debugfs' full proxy passes .read_iter/.write_iter
    on, or .read/.write, never a mix of them."""

    def test_proxy_fault(self):
        o = Fops(None, "a_fops")
        o.fields = {"read": "a_read", "write": "a_write"}
        reg = ModuleRegistration()
        self.assertIsNone(reg.proxy_fault([o], {}))
        culprit, why = reg.proxy_fault([o], {o: {"write": "not converted"}})
        self.assertIs(culprit, o)
        self.assertIn(".write stays legacy", why)
        self.assertIsNone(reg.proxy_fault([o], {o: {"poll": "x"}}))
        culprit, why = reg.proxy_fault([o, "other_fops"], {})
        self.assertIsNone(culprit)
        self.assertIn("isn't a fops these files define", why)
        o.keep = "registered nowhere"
        self.assertEqual(reg.proxy_fault([o], {}), (o, "registered nowhere"))


if __name__ == "__main__":
    unittest.main()
