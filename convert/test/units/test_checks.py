# SPDX-License-Identifier: GPL-2.0
"""Unit tests of iterconv/checks.py: what may be converted natively."""

import unittest

from iterconv.checks import FileChecks, ModuleChecks, unbounded
from iterconv.text import strip_comments


class Fn(FileChecks):
    """A file of one read function r, its buffer buf."""

    def __init__(self, body):
        self.code = strip_comments(
            "static ssize_t r(struct file *file, char __user *buf, "
            "size_t count, loff_t *ppos)\n{\n%s\n}\n" % body)
        self.fns = {"r": {"buf": "buf"}}
        self.reads, self.writes = {"r": "native"}, {}
        self.notes = {}

    def fall_back(self, name, reason):
        self.reads[name] = "wrap"
        self.notes[name] = ("wrapped", reason)


class NativeCheck(unittest.TestCase):
    def test_one_use(self):
        self.assertIsNone(Fn("\treturn copy_to_user(buf, x, count);").
                          native_check("r"))

    def test_refusals(self):
        for body, why in [
                ("\tcopy_to_user(buf, x, 1);\n\treturn buf[0];",
                 "uses its buffer in 2 places"),
                ("\tif (!ppos)\n\t\treturn 0;", "tests ppos for NULL"),
                ("\tint to = 0;", "already uses the name 'to'"),
                ("again:\n\tif (copy_to_user(buf, x, 1))\n\t\tgoto again;",
                 "after label again:")]:
            self.assertIn(why, Fn(body).native_check("r"))


class Members(unittest.TestCase):
    """A member that shares the buffer's name (hidraw_read's
    list->buffer[...]) is not a use of the buffer: neither the count of
    its uses, nor a use in a loop, nor one left in the output."""
    BODY = ("\tfor (i = 0; i < 4; i++) {\n\t\tlist->buf[i] = 0;\n\t}\n"
            "\tx.buf = 1;\n\tc = (struct s){ .buf = 2 };\n"
            "\treturn copy_to_user(buf, list->buf, count);")

    def test_native_check(self):
        self.assertIsNone(Fn(self.BODY).native_check("r"))
        self.assertIn("uses its buffer in 2 places", Fn(
            self.BODY + "\n\tbuf[0] = 0;").native_check("r"))

    def test_loop_check(self):
        f = Fn(self.BODY)
        self.assertFalse(f.loop_check(f.code))
        self.assertEqual(f.reads, {"r": "native"})

    def test_leftovers(self):
        f = Fn(self.BODY)
        out = ("static ssize_t r_iter(struct kiocb *iocb, struct iov_iter "
               "*to)\n{\n\tlist->buf[0] = 0;\n"
               "\treturn copy_to_iter(list->buf, count, to);\n}\n")
        self.assertFalse(f.leftovers(out))
        self.assertEqual(f.reads, {"r": "native"})
        self.assertTrue(f.leftovers(out.replace("list->buf, count",
                                                "buf, count")))
        self.assertIn("no pattern rewrote this use of its buffer",
                      f.notes["r"][1])


class ByteScan(unittest.TestCase):
    """chunk-loop.cocci's byte scan, as loop_check() sees it after the
    pass: a continue before the get_iter() would step i without a read
    (spatch's paths can't see it), one after it is no matter."""
    LOOP = ("\tfor (i = 0; i != count; i++) {\n%s\t\tif (get_iter(c, to))"
            "\n\t\t\treturn -EFAULT;\n%s\t}\n\treturn count;")
    SKIP = "\t\tif (i == 3)\n\t\t\tcontinue;\n"

    def test_continue_before(self):
        f = Fn(self.LOOP % (self.SKIP, ""))
        self.assertTrue(f.loop_check(f.code))
        self.assertEqual(f.notes["r"], ("wrapped", "a byte scan that may "
                                        "continue before its get_user()"))

    def test_continue_after(self):
        f = Fn(self.LOOP % ("", self.SKIP))
        self.assertFalse(f.loop_check(f.code))
        self.assertEqual(f.reads, {"r": "native"})

    def test_inside_another_loop(self):
        """A second pass of an outer loop would find the iterator used
        up: the byte scan and the chunk loop alike."""
        outer = "\tfor (pass = 0; pass < 2; pass++) {\n%s\t}\n"
        f = Fn(outer % (self.LOOP % ("", "")).replace("\treturn count;", ""))
        self.assertTrue(f.loop_check(f.code))
        self.assertEqual(f.notes["r"], ("wrapped", "a byte scan inside "
                                        "another loop would read the "
                                        "iterator again"))
        f = Fn("\twhile (more) {\n\t\tfor (done = 0; done < count; "
               "done += n)\n\t\t\tif (copy_from_iter(d, n, to) != n)"
               "\n\t\t\t\treturn -EFAULT;\n\t}\n")
        self.assertTrue(f.loop_check(f.code))
        self.assertEqual(f.notes["r"], ("wrapped", "a chunk loop inside "
                                        "another loop would read the "
                                        "iterator again"))


class Bounded(unittest.TestCase):
    def why(self, body, read=True):
        at = body.index("buf")
        return unbounded(body, at, "buf", "count", read)

    def test_unbounded(self):
        why = self.why("\tif (copy_to_user(buf, &c, 1))")
        self.assertIn("copy_to_user()'s length (1) is not bounded by count",
                      why)
        self.assertIn("read(fd, buf, 0)", why)
        self.assertIn("a shorter write", self.why(
            "\tif (count < 10)\n\t\treturn -EINVAL;\n"
            "\tif (copy_from_user(&c, buf, 1))", read=False))
        self.assertIn("sizeof the value", self.why(
            "\treturn put_user(v, (int __user *)buf);"))
        # The larger of the two, or a min() without count: not bounded.
        for n in ("count > max ? count : max", "max(len, count)",
                  "min_t(size_t, count, len) + 1", "min(len, 8)",
                  "min_t(int, ret, count)", "min_t(ssize_t, len, count)"):
            self.assertIn("is not bounded by count", self.why(
                "\tif (copy_to_user(buf, x, %s))" % n), n)

    def test_bounded(self):
        for body in [
                "\tif (copy_to_user(buf, x, count))",
                "\tif (count < sizeof(v))\n\t\treturn -EINVAL;\n"
                "\tif (copy_to_user(buf, &v, sizeof(v)))",
                "\tif (sizeof(v) > count)\n\t\treturn -EINVAL;\n"
                "\treturn put_user(v, (int __user *)buf);",
                "\tn = min(count, len);\n\tif (copy_to_user(buf, x, n))",
                "\tif (count == 4)\n\t\tcopy_from_user(&v, buf, 4);",
                "\treturn simple_read_from_buffer(buf, count, ppos, x, 9);",
                # min() and its conditional forms (fs/dlm, fs/proc/base.c)
                "\tif (copy_from_user(x, buf, min_t(size_t, sizeof(x) - 1,"
                " count)))",
                "\tif (copy_to_user(buf, x, min(len, count)))",
                "\tif (copy_to_user(buf, x, min_t(unsigned long, n, count)))",
                "\tif (copy_to_user(buf, x, count > max ? max : count))",
                "\tif (copy_to_user(buf, x, (max < count) ? max : count))",
                "\tif (copy_to_user(buf, x, count <= max ? count : max))"]:
            self.assertIsNone(self.why(body), body)


class Conditional(unittest.TestCase):
    def d(self, text):
        return type("D", (), {"code": strip_comments(text)})

    def test_twice(self):
        why = ModuleChecks.conditional(self.d(
            "#ifdef A\nstatic int f(void)\n{\n}\n#else\n"
            "static int f(void)\n{\n}\n#endif\n"), "f")
        self.assertIn("defined 2 times (lines 2, 6", why)

    def test_null_define_is_followed(self):
        self.assertIsNone(ModuleChecks.conditional(self.d(
            "#ifdef A\nstatic int f(void)\n{\n}\n#else\n#define f NULL\n"
            "#endif\n"), "f"))


if __name__ == "__main__":
    unittest.main()
