# SPDX-License-Identifier: GPL-2.0
"""Upstream mode (--upstream): the module's outputs as a git format-patch
series against a kernel tree.  First the core patches the outputs need
and the tree lacks (the RFC's helpers, which mainline never merged: what
they do is common/iterkit.h's, read out of it by kitsource.py), each
after the patches that rename a static of a name it adds (names.py),
then one patch per module of the call (a Makefile's NAME-y/-objs, or
one .c file), with a kernel-style subject and a message saying what
callers see differently and what was checked.  No kit header in any
patch: a file that needs a kit name no core patch provides is left out,
with the reason.  Then the checks: checkpatch --strict on each patch,
and each patch compiled at its place in the series (W=1) in a copy of
the tree under build/: a driver's files, or a core patch's objects and
those that define or use its names, where the tree's .config builds
them."""

import collections
import os
import re
import shutil
import subprocess
import tempfile
import textwrap

from . import kbuild
from . import names as treenames	# "names" is many a local's name
from .build import TOP, compile_module
from .kbuild import git_env, module_lists
from .kitsource import fill

KIT_INCLUDE_LINE = re.compile(
    r'^[ \t]*#[ \t]*include[ \t]+"(?:iterkit|debugfs_iter|compat)\.h"')
KIT_INCLUDE = re.compile(
    r'^[ \t]*#[ \t]*include[ \t]+"(?:iterkit|debugfs_iter|compat)\.h"'
    r'[^\n]*\n(?:[ \t]*\n(?=[ \t]*\n|#include <))?', re.M)
# Kit names that no core patch here provides yet: a file using one is
# left out of the series.
UNSUPPORTED = re.compile(r"\b(kstrto\w+_from_iter|DEBUGFS_\w+_SAFE)\b")

SIMPLE_DECL = """\
ssize_t simple_copy_to_iter(const void *from, loff_t *ppos, size_t available,
			    struct iov_iter *to);
ssize_t simple_copy_from_iter(void *to, loff_t *ppos, size_t available,
			      struct iov_iter *from);
"""

SIMPLE_DEF = """
/**
 * simple_copy_to_iter - copy data from the buffer to an iterator
 * @from: the buffer to read from
 * @ppos: the current position in the buffer
 * @available: the size of the buffer
 * @to: the iterator to copy to
 *
 * simple_read_from_buffer() for ->read_iter(): copies up to
 * iov_iter_count(@to) bytes from @from + *@ppos, but not past @available,
 * and advances *@ppos and @to by the bytes copied.
 *
 * Return: the bytes copied; 0 if *@ppos is at or past @available or @to
 * is empty; -EINVAL if *@ppos is negative; -EFAULT if nothing could be
 * copied.
 */
ssize_t simple_copy_to_iter(const void *from, loff_t *ppos, size_t available,
			    struct iov_iter *to)
@body kit_simple_copy_to_iter@
EXPORT_SYMBOL(simple_copy_to_iter);

/**
 * simple_copy_from_iter - copy data from an iterator to the buffer
 * @to: the buffer to write to
 * @ppos: the current position in the buffer
 * @available: the size of the buffer
 * @from: the iterator to copy from
 *
 * simple_write_to_buffer() for ->write_iter(): copies up to
 * iov_iter_count(@from) bytes to @to + *@ppos, but not past @available,
 * and advances *@ppos and @from by the bytes copied.
 *
 * Return: the bytes copied; 0 if *@ppos is at or past @available or @from
 * is empty; -EINVAL if *@ppos is negative; -EFAULT if nothing could be
 * copied.
 */
ssize_t simple_copy_from_iter(void *to, loff_t *ppos, size_t available,
			      struct iov_iter *from)
@body kit_simple_copy_from_iter@
EXPORT_SYMBOL(simple_copy_from_iter);
"""

VFS_DECL = """\
ssize_t vfs_read_iter(struct kiocb *iocb, struct iov_iter *to,
		      ssize_t (*read)(struct file *, char __user *, size_t,
				      loff_t *));
ssize_t vfs_write_iter(struct kiocb *iocb, struct iov_iter *from,
		       ssize_t (*write)(struct file *, const char __user *,
					size_t, loff_t *));

/*
 * Drivers can use these to ease transition to using ->read_iter() instead
 * of ->read(), and ->write_iter() instead of ->write().
 */
@define FOPS_READ_ITER_HELPER@

@define FOPS_WRITE_ITER_HELPER@

"""

VFS_DEF = """
/* The length of the user segment a user-backed iterator is at. */
static size_t iter_seg_len(const struct iov_iter *i)
@body kit_iter_seg_len@

static ssize_t vfs_rw_iter(struct kiocb *iocb, struct iov_iter *iter,
			   ssize_t (*read)(struct file *, char __user *,
					   size_t, loff_t *),
			   ssize_t (*write)(struct file *, const char __user *,
					    size_t, loff_t *))
@body kit_vfs_rw_iter@

/**
 * vfs_read_iter - run a legacy ->read() as ->read_iter()
 * @iocb: the kiocb passed to ->read_iter()
 * @to: the destination passed to ->read_iter()
 * @read: the legacy read method
 *
 * Calls @read once per segment of @to, as the VFS does for readv() on a
 * file with ->read only, and stops at the first short or failed segment.
 *
 * Return: the bytes read, or an errno if nothing was: @read's, -EINVAL if
 * @to is not user memory, -EAGAIN for IOCB_NOWAIT on a blocking file.
 */
ssize_t vfs_read_iter(struct kiocb *iocb, struct iov_iter *to,
		      ssize_t (*read)(struct file *, char __user *, size_t,
				      loff_t *))
@body kit_vfs_read_iter@
EXPORT_SYMBOL(vfs_read_iter);

/**
 * vfs_write_iter - run a legacy ->write() as ->write_iter()
 * @iocb: the kiocb passed to ->write_iter()
 * @from: the source passed to ->write_iter()
 * @write: the legacy write method
 *
 * As vfs_read_iter(), for writing.
 *
 * Return: the bytes written, or an errno if nothing was.
 */
ssize_t vfs_write_iter(struct kiocb *iocb, struct iov_iter *from,
		       ssize_t (*write)(struct file *, const char __user *,
					size_t, loff_t *))
@body kit_vfs_write_iter@
EXPORT_SYMBOL(vfs_write_iter);
"""

ITER_DEF = """
/* get_user() and put_user() for iterators: 0, or nonzero if short. */
@define put_iter@
@define get_iter@
"""


def after(text, pattern, insert):
    """text with insert after the first match of pattern (a whole line
    or more), or None if it has none."""
    m = re.search(pattern, text, re.M | re.S)
    if not m:
        return None
    return text[:m.end()] + insert + text[m.end():]


def before_last_endif(text, insert):
    i = text.rfind("\n#endif")
    return None if i < 0 else text[:i] + insert + text[i:]


def ensure_include(text, header):
    """text with #include <header> among its <linux/...> includes."""
    if re.search(r"^#include <%s>" % re.escape(header), text, re.M):
        return text
    lines = [m for m in re.finditer(r"^#include <linux/[^>]+>\n", text, re.M)]
    if not lines:
        return None
    for m in lines:		# sorted in place where they are sorted
        if m.group(0) > "#include <%s>\n" % header:
            return text[:m.start()] + "#include <%s>\n" % header + \
                text[m.start():]
    return text[:lines[-1].end()] + "#include <%s>\n" % header + \
        text[lines[-1].end():]


def replace(text, old, new):
    """text with old replaced by new, once, or None if it has no old."""
    return text.replace(old, new, 1) if text and old in text else None


DEBUGFS_FUNCS = """
FULL_PROXY_FUNC(read_iter, ssize_t, iocb->ki_filp,
		PROTO(struct kiocb *iocb, struct iov_iter *to),
		ARGS(iocb, to), HAS_READ_ITER, -EINVAL);

FULL_PROXY_FUNC(write_iter, ssize_t, iocb->ki_filp,
		PROTO(struct kiocb *iocb, struct iov_iter *from),
		ARGS(iocb, from), HAS_WRITE_ITER, -EINVAL);
"""

DEBUGFS_FOPS = """
/* The same, for a file whose real fops have .read_iter or .write_iter. */
const struct file_operations debugfs_full_proxy_iter_file_operations = {
	.open = full_proxy_open_regular,
	.release = full_proxy_release,
	.llseek = full_proxy_llseek,
	.read_iter = full_proxy_read_iter,
	.write_iter = full_proxy_write_iter,
	.poll = full_proxy_poll,
	.unlocked_ioctl = full_proxy_unlocked_ioctl
};
"""


def debugfs_file(t):
    t = replace(t, "\t\t\tif (ops->poll)\n\t\t\t\tmethods |= HAS_POLL;\n",
                "\t\t\tif (ops->poll)\n\t\t\t\tmethods |= HAS_POLL;\n"
                "\t\t\tif (ops->read_iter)\n"
                "\t\t\t\tmethods |= HAS_READ_ITER;\n"
                "\t\t\tif (ops->write_iter)\n"
                "\t\t\t\tmethods |= HAS_WRITE_ITER;\n")
    t = t and after(t, r"^FULL_PROXY_FUNC\(unlocked_ioctl,[^;]*;\n",
                    DEBUGFS_FUNCS)
    t = replace(t, "\t\t} else if (filp->f_op != "
                "&debugfs_full_proxy_file_operations) {\n",
                "\t\t} else if (filp->f_op != "
                "&debugfs_full_proxy_file_operations &&\n"
                "\t\t\t   filp->f_op != "
                "&debugfs_full_proxy_iter_file_operations) {\n")
    return t and after(t, r"^const struct file_operations "
                       r"debugfs_full_proxy_file_operations = \{.*?^\};\n",
                       DEBUGFS_FOPS)


def debugfs_inode(t):
    return replace(t, """{
	return __debugfs_create_file(name, mode, parent, data, aux,
				&debugfs_full_proxy_file_operations,
				fops);
}""", """{
	const struct file_operations *proxy_fops =
		&debugfs_full_proxy_file_operations;

	if (fops && (fops->read_iter || fops->write_iter))
		proxy_fops = &debugfs_full_proxy_iter_file_operations;
	return __debugfs_create_file(name, mode, parent, data, aux,
				     proxy_fops, fops);
}""")


def debugfs_internal(t):
    t = replace(t, "extern const struct file_operations "
                "debugfs_full_proxy_file_operations;\n",
                "extern const struct file_operations "
                "debugfs_full_proxy_file_operations;\n"
                "extern const struct file_operations "
                "debugfs_full_proxy_iter_file_operations;\n")
    return replace(t, "\tHAS_IOCTL = 16\n};",
                   "\tHAS_IOCTL = 16,\n\tHAS_READ_ITER = 32,\n"
                   "\tHAS_WRITE_ITER = 64\n};")


# Each core patch: the names it provides, the tree's file that has them
# once it is in, its subject and message, and how it changes each file;
# the global names it adds (names, where it doesn't say), which the tree
# must not have already (names.py), and which of those are macros.
CORE = [
    {"names": ("simple_copy_to_iter", "simple_copy_from_iter"),
     "has": "include/linux/fs.h",
     "subject": "fs: add simple_copy_to_iter() and simple_copy_from_iter()",
     "body": "simple_read_from_buffer() and simple_write_to_buffer() take a "
             "__user pointer, so a driver moving its .read/.write to "
             ".read_iter/.write_iter has nothing to call in their place. "
             "Add the iterator forms, with the same contract: the copy is "
             "bounded by the iterator's count and by the buffer's size, "
             "*ppos and the iterator advance by what was copied.",
     "edits": {
         "include/linux/fs.h": lambda t: after(
             t, r"^extern ssize_t simple_write_to_buffer\([^;]*;\n",
             SIMPLE_DECL),
         "fs/libfs.c": lambda t: after(
             ensure_include(t, "linux/uio.h") or "",
             r"^EXPORT_SYMBOL\(simple_write_to_buffer\);\n", fill(SIMPLE_DEF))}},
    {"names": ("FOPS_READ_ITER_HELPER", "FOPS_WRITE_ITER_HELPER",
               "vfs_read_iter", "vfs_write_iter"),
     "has": "include/linux/fs.h",
     "macros": ("FOPS_READ_ITER_HELPER", "FOPS_WRITE_ITER_HELPER"),
     "subject": "fs: add helpers to run a legacy read/write as read_iter/"
                "write_iter",
     "body": "A driver whose .read or .write can't be rewritten for an "
             "iterator yet can keep it and still drop .read/.write from its "
             "file_operations: FOPS_READ_ITER_HELPER(fn) defines fn_iter(), "
             "which calls fn once per user segment as the VFS does for "
             "readv() on a .read-only file. Kernel-memory iterators get "
             "-EINVAL, as they did, and IOCB_NOWAIT on a blocking file "
             "gets -EAGAIN, since fn can't be told not to block. After Jens "
             "Axboe's RFC \"Kill off old fops ->read() and ->write()\".",
     "edits": {
         "include/linux/fs.h": lambda t: after(
             t, r"^extern ssize_t vfs_write\(struct file \*[^;]*;\n",
             fill(VFS_DECL)),
         "fs/read_write.c": lambda t: t + fill(VFS_DEF)}},
    {"names": ("full_proxy_read_iter",),
     "has": "fs/debugfs/file.c",
     "globals": ("debugfs_full_proxy_iter_file_operations",),
     "wanted": re.compile(r"^\s*fops \w+: checked: .*debugfs_create_file"
                          r".*: through the full proxy's", re.M),
     "subject": "debugfs: let the full proxy pass on read_iter and "
                "write_iter",
     "body": "debugfs_create_file()'s full proxy calls a file's .read, "
             ".write, .llseek, .poll and .unlocked_ioctl, each bracketed "
             "against the file's removal, and nothing else: a driver moving "
             "its debugfs file to .read_iter/.write_iter has to switch to "
             "debugfs_create_file_unsafe() and bracket every method itself. "
             "Give the proxy a second file_operations, chosen when the file "
             "is created if its real fops have .read_iter or .write_iter, "
             "that passes those on, bracketed the same way, in place of "
             ".read and .write (the VFS calls .read before .read_iter, so "
             "one proxy can't offer both).",
     "edits": {"fs/debugfs/internal.h": debugfs_internal,
               "fs/debugfs/file.c": debugfs_file,
               "fs/debugfs/inode.c": debugfs_inode}},
    {"names": ("get_iter", "put_iter"),
     "has": "include/linux/uio.h",
     "macros": ("get_iter", "put_iter"),
     "subject": "uio: add get_iter() and put_iter()",
     "body": "get_user() and put_user() for an iterator: copy one "
             "variable, all or nothing, and return nonzero if the iterator "
             "was short. After Jens Axboe's RFC \"Kill off old fops "
             "->read() and ->write()\".",
     "edits": {"include/linux/uio.h": lambda t: before_last_endif(
         t, fill(ITER_DEF))}},
]


def strip_kit(new):
    """new without its kit includes, nor the blank line that
    Rewrite.includes() set above them (when they follow a system
    header).  Blank lines elsewhere stay as they are."""
    out = []
    for line in new.split("\n"):
        if not KIT_INCLUDE_LINE.match(line):
            out.append(line)
        elif len(out) > 1 and not out[-1].strip() and \
                out[-2].startswith("#include <"):
            out.pop()
    return "\n".join(out)


def mentions(text, name):
    """Whether text names name as a word anywhere (comments, members and
    all: not text.uses(), which leaves members out)."""
    return re.search(r"\b%s\b" % re.escape(name), text) is not None


def core_needed(tree, outputs, reports=""):
    """The core patches the outputs (and the reports' lines) need and
    tree lacks, in order."""
    out = []
    for c in CORE:
        if "wanted" in c:
            if not c["wanted"].search(reports):
                continue
        elif not any(mentions(o, n) for o in outputs for n in c["names"]):
            continue
        with open(os.path.join(tree, c["has"]), errors="replace") as f:
            have = f.read()
        if not all(mentions(have, n) for n in c["names"]):
            out.append(c)
    return out


def groups(tree, paths):
    """The call's .c files by module: a Makefile's NAME-y/-objs in their
    directory, else one per file.  {name: [relative paths]}, in order."""
    out = collections.OrderedDict()
    for p in paths:
        rel = os.path.relpath(p, tree)
        d, base = os.path.split(rel)
        name = base[:-2]
        name = next((n for n, objs in module_lists(
            os.path.join(tree, d, "Makefile")) if name + ".o" in objs), name)
        out.setdefault((d, name), []).append(rel)
    return out


def prefix(tree, rels, name):
    """A subject's prefix: the tree's git log's, for these files, else
    net's and the module's name under net/ (netdev's subjects start
    "net:"), else the directory's last part and the module's name."""
    if os.path.isdir(os.path.join(tree, ".git")):
        p = subprocess.run(["git", "-C", tree, "log", "-n", "30",
                            "--format=%s", "--"] + rels,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True, env=git_env())
        seen = collections.Counter(s.rsplit(": ", 1)[0]
                                   for s in p.stdout.splitlines()
                                   if ": " in s and not
                                   s.lower().startswith(("merge", "revert")))
        if seen:
            return seen.most_common(1)[0][0]
    if rels[0].startswith("net/"):
        return "net: %s" % name
    d = os.path.basename(os.path.dirname(rels[0])) or "misc"
    return d if d == name else "%s: %s" % (d, name)


def wrap(items, bullet="- "):
    """Paragraph lines of a commit message, at most 72 columns."""
    out = []
    for s in items:
        out += textwrap.wrap(s, 72, initial_indent=bullet,
                             subsequent_indent=" " * len(bullet),
                             break_on_hyphens=False, break_long_words=False)
    return out


def message(module_name, files, release):
    """The commit message's body for one module's patch."""
    callers, author, checked = [], [], []
    for f in files:
        for line in f.report():
            line = line.strip()
            if line.startswith("for callers: "):
                callers.append(line[len("for callers: "):])
            elif line.startswith("for the author: "):
                author.append(line[len("for the author: "):])
            elif line.startswith("fops ") and ": checked: " in line:
                checked.append(line)
            elif line.startswith("build: builds"):
                checked.append("%s: %s against %s" % (
                    os.path.basename(f.path), line[len("build: "):],
                    release))
    natives = [line.strip() for f in files for line in f.report()
               if re.match(r"\s*\w+: (native|wrapped)\b", line)]
    body = wrap(["Switch %s's file_operations from .read/.write to "
                 ".read_iter/.write_iter.%s" % (module_name, (
                     " A function converted natively takes the iterator; "
                     "a wrapped one keeps its body and is run through "
                     "FOPS_READ_ITER_HELPER() or FOPS_WRITE_ITER_HELPER(), "
                     "once per segment as before.") if any(
                         ": wrapped" in n for n in natives) else "")], "")
    body += [""] + wrap(natives)
    if callers:
        body += ["", "What callers see differently:"] + wrap(callers)
    if author:
        body += ["", "Not done here, for the maintainer to decide:"] + \
            wrap(author)
    body += ["", "Checked (scripts/convert --upstream, iterkit):"] + \
        wrap(checked)
    return "\n".join(body)


def git(repo, *args, **kw):
    return subprocess.run(["git", "-C", repo] + list(args), check=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw).stdout


CORE_CLASH = "a core patch changes the same lines: convert it by hand " \
    "on top of the series"


def merge3(base, ours, theirs):
    """theirs' changes to base made on ours (git merge-file), or None
    where they overlap."""
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for name, text in (("ours", ours), ("base", base),
                           ("theirs", theirs)):
            paths.append(os.path.join(d, name))
            with open(paths[-1], "w") as fh:
                fh.write(text)
        p = subprocess.run(["git", "merge-file", "-p", "-q"] + paths,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=git_env())
    return p.stdout if p.returncode == 0 else None


def on_core(done, rel, old, new):
    """A driver's edit (old, new) of rel, made on what the core patches
    left of it (done): a file both change (fs/libfs.c, say) must keep
    the core patch's lines.  None where the two overlap."""
    if rel not in done:
        return (old, new)
    merged = merge3(old, done[rel], new)
    return None if merged is None else (done[rel], merged)


Patch = collections.namedtuple("Patch",
                               "subject body edits unbuilt objects kind")
Patch.__doc__ = """One patch of the series: its subject and body, its edits
{rel: (old, new)}, the rels whose original doesn't build against the
tree, the tree's objects to build once it is in (a core patch's, and
those of the files that define or use the names it adds; a rename's,
its file's), and its kind: "core", "rename" or "driver"."""


def needs(c, out, report):
    """Whether a file's output (and its report's lines) needs core
    patch c."""
    if "wanted" in c:
        return c["wanted"].search(report) is not None
    return any(mentions(out, n) for n in c["names"])


def objects(rels):
    """The objects of the .c files among rels."""
    return [r[:-2] + ".o" for r in rels if r.endswith(".c")]


def rename_patch(tree, c, rel, names, old):
    """The patch renaming rel's statics (names, old: new) before core
    patch c adds a global of each name."""
    def said(n):
        fn = re.search(r"\b%s\s*\(" % re.escape(n), old)
        return n + ("()" if fn else "")
    olds = " and ".join(said(n) for n in names)
    news = " and ".join(said(n).replace(n, names[n]) for n in names)
    body = ("The patch \"%s\" adds a global %s to %s, which %s's static "
            "%s would conflict with wherever that header is included. "
            "Rename the static %s. No functional change." % (
                c["subject"], olds, c["has"], os.path.basename(rel),
                "of the same name" if len(names) == 1 else "ones",
                "one " + news if len(names) == 1 else "ones " + news))
    return Patch("%s: rename static %s" % (
        prefix(tree, [rel], os.path.basename(rel)[:-2]), olds),
        "\n".join(wrap([body], "")),
        {rel: (old, treenames.rename(old, names))}, set(), objects([rel]),
        "rename")


def plan(module, tree):
    """(patches, left out): patches are Patch()es; left out is [(path,
    why)].  Before a core patch, the tree is searched for the globals it
    adds: a .c file's static of the same name is renamed in a patch of
    its own, before it; any other clash refuses the core patch, and the
    modules whose files need it are left out."""
    live = [f for f in module.files if not f.refusal and not f.untouched]
    left = []
    outs = {}
    for f in live:
        new = strip_kit(f.out)
        bad = sorted(set(UNSUPPORTED.findall(new)))
        if bad:
            left.append((f.path, "needs %s, which no core patch of "
                         "upstream mode provides yet" % ", ".join(bad)))
            continue
        outs[f] = new
    patches = []
    reports = {f: "\n".join(f.report()) for f in outs}
    done = {}	# a file as the patches so far leave it
    blocked = {}	# a file -> why the core patch it needs can't go in

    def text(rel):
        if rel not in done:
            with open(os.path.join(tree, rel)) as fh:
                done[rel] = fh.read()
        return done[rel]
    for c in core_needed(tree, list(outs.values()),
                         "\n".join(reports.values())):
        users = []
        try:
            renames = treenames.scan(tree, c.get("globals", c["names"]),
                                     c.get("macros", ()), set(c["edits"]),
                                     users)
        except treenames.Clash as e:
            for f in outs:
                if needs(c, outs[f], reports[f]):
                    blocked.setdefault(f, "needs %s, which can't be added: "
                                       "%s" % (c["subject"], e))
            continue
        objs = objects(c["edits"])
        for rel, names in sorted(renames.items()):
            patches.append(rename_patch(tree, c, rel, names, text(rel)))
            done[rel] = patches[-1].edits[rel][1]
            objs += patches[-1].objects
        objs += [o for o in objects(users) if o not in objs]
        edits = {}
        for rel, edit in c["edits"].items():
            old = text(rel)
            new = done[rel] = edit(old)
            if not new:
                raise RuntimeError("%s: no place for %s" % (rel, c["subject"]))
            edits[rel] = (old, new)
        patches.append(Patch(c["subject"], "\n".join(wrap([c["body"]], "")),
                             edits, set(), objs, "core"))
    byname = {os.path.relpath(f.path, tree): f for f in outs}
    unbuilt = {r for r, f in byname.items()
               if any(x.startswith("build: not checked") for x in
                      getattr(f, "build", []))}
    release = os.path.basename(os.path.dirname(os.path.abspath(tree)))
    mods = groups(tree, [f.path for f in outs])
    edits = {}	# a module's: {rel: (old, new)}, made on the core patches'

    def drop(key, clash, why=CORE_CLASH):
        """Leave module key out: its files name each other's functions,
        so none goes without the one that clashes."""
        for r in mods.pop(key):
            left.append((byname[r].path, why if r == clash else
                         "left out with %s, of its module, where %s" % (
                             os.path.basename(clash),
                             "a core patch changes the same lines"
                             if why == CORE_CLASH else
                             "a core patch it needs can't be added")))
        edits.pop(key, None)
    for key, rels in list(mods.items()):
        stop = next((r for r in rels if byname[r] in blocked), None)
        if stop:
            drop(key, stop, blocked[byname[stop]])
            continue
        edits[key] = {r: on_core(done, r, byname[r].text, outs[byname[r]])
                      for r in rels}
        clash = next((r for r in rels if edits[key][r] is None), None)
        if clash:
            drop(key, clash)
    # A changed header goes with one module, once: the first whose files
    # include it.  One that clashes takes its module out with it.
    homes = []
    for h in module.headers:
        if h.out == h.text:
            continue
        inc = re.compile(r'^\s*#\s*include\s*[<"](?:[^>"]*/)?%s[>"]' %
                         re.escape(os.path.basename(h.path)), re.M)
        k = next((k for k, rels in mods.items()
                  if any(inc.search(byname[r].text) for r in rels)), None)
        r = os.path.relpath(h.path, tree)
        e = k and on_core(done, r, h.text, h.out)
        if k is None:
            left.append((h.path, "no file of the series includes it"))
        elif e is None:
            left.append((h.path, CORE_CLASH))
            if k in mods:
                drop(k, r)
        else:
            homes.append((h, k, r, e))
    for h, k, r, e in homes:
        if k in mods:
            edits[k][r] = e
        else:
            left.append((h.path, "its module is left out"))
    for (d, name), rels in mods.items():
        fs = [byname[r] for r in rels]
        patches.append(Patch("%s: convert to read/write iterators" %
                             prefix(tree, rels, name),
                             message(name, fs, release), edits[(d, name)],
                             unbuilt & set(rels), [], "driver"))
    return patches, left


# The author when git has none: a name and an address (RFC 2606's
# .invalid: never delivered) for the user to replace before sending.
PLACEHOLDER = ("Your Name", "you@example.invalid")


def identity(tree):
    """(name, email, whether it is the user's): GIT_AUTHOR_NAME and
    GIT_AUTHOR_EMAIL (EMAIL too) or git config's user.name and user.email,
    as tree's repository (if it is one) sees them; PLACEHOLDER's for each
    that none sets.  Never what git would guess from the host's names."""
    def config(key):
        p = subprocess.run(["git", "config", "--get", key],
                           cwd=tree if os.path.isdir(tree) else None,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True)
        return p.stdout.strip()
    name = os.environ.get("GIT_AUTHOR_NAME") or config("user.name")
    email = os.environ.get("GIT_AUTHOR_EMAIL") or config("user.email") or \
        os.environ.get("EMAIL")
    return (name or PLACEHOLDER[0], email or PLACEHOLDER[1],
            bool(name and email))


def write(patches, outdir, ident=PLACEHOLDER):
    """The series as git format-patch writes it, in outdir: [paths].
    Author and Signed-off-by (git commit -s) are ident, (name, email),
    given to git in its environment: nothing is read from or written to
    the user's git config here."""
    os.makedirs(outdir, exist_ok=True)
    # Nor any other setting of the user's: format.coverLetter,
    # diff.noprefix or a hook would change what is written, and so would
    # GIT_DIR, GIT_CONFIG_PARAMETERS (git -c) or GIT_TEMPLATE_DIR.
    env = git_env(GIT_AUTHOR_NAME=ident[0], GIT_AUTHOR_EMAIL=ident[1],
                  GIT_COMMITTER_NAME=ident[0], GIT_COMMITTER_EMAIL=ident[1],
                  GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)

    def commit(*args, **kw):
        git(repo, "commit", "-q", "--no-verify", *args, env=env, **kw)
    with tempfile.TemporaryDirectory() as repo:
        git(repo, "init", "-q", env=env)
        for patch in patches:	# the tree's files, as they were
            for rel, (old, _) in patch.edits.items():
                path = os.path.join(repo, rel)
                if not os.path.exists(path):
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    with open(path, "w") as fh:
                        fh.write(old)
        git(repo, "add", "-A", env=env)
        commit("-m", "base")
        for patch in patches:
            for rel, (_, new) in patch.edits.items():
                with open(os.path.join(repo, rel), "w") as fh:
                    fh.write(new)
            commit("-s", "-a", "-F", "-",
                   input="%s\n\n%s\n" % (patch.subject, patch.body))
        out = git(repo, "format-patch", "--no-signature",
                  "-o", os.path.abspath(outdir), "HEAD~%d" % len(patches),
                  env=env)
    return out.split()


def checkpatch(tree, patch):
    """checkpatch --strict's findings on one patch: [lines]."""
    script = os.path.join(tree, "scripts", "checkpatch.pl")
    if not os.path.isfile(script):
        kit = subprocess.run([os.path.join(TOP, "scripts", "kernel"),
                              "checkpatch"], stdout=subprocess.PIPE,
                             text=True).stdout.strip()
        script = os.path.join(kit, "scripts", "checkpatch.pl")
    p = subprocess.run([script, "--strict", "--no-tree", "--quiet",
                        "--show-types", patch], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return [line for line in p.stdout.splitlines()
            if re.match(r"(ERROR|WARNING|CHECK):", line)]


def scratch_tree(tree):
    """A copy of tree to apply the series to, under build/: never the
    tree itself (the kit's cache)."""
    dest = os.path.join(TOP, "build", "upstream", "tree")
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    subprocess.run(["cp", "-a", "--reflink=auto", tree, dest], check=True)
    return dest


def apply(tree, patch):
    """git apply patch to tree, a copy of a kernel tree.  In a
    subdirectory of another repository (the kit's checkout: the copy is
    under build/), git apply takes the paths as that repository's and
    skips them all, with status 0: so git looks for no repository above
    tree."""
    env = git_env(GIT_CEILING_DIRECTORIES=os.path.dirname(
        os.path.abspath(tree)))
    return subprocess.run(["git", "apply", "--whitespace=nowarn",
                           os.path.abspath(patch)], cwd=tree, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)


def either(ways):
    """kbuild.enabled_by()'s ways as words: "CONFIG_A CONFIG_B, or
    CONFIG_C"."""
    return ", or ".join(" ".join(w) for w in ways)


def configs(tree, objs):
    """Each object with the config symbols Kbuild needs on to build it
    (kbuild.enabled_by(), None where no Makefile names it): "fs/libfs.o,
    net/core/datagram.o (CONFIG_NET)"."""
    out = []
    for o in objs:
        ways = kbuild.enabled_by(tree, o[:-2] + ".c")
        out.append(o + ("" if ways == [[]] else " (%s)" % (
            either(ways) if ways else "no Makefile names it")))
    return ", ".join(out)


def unbuildable(tree, obj, cfg):
    """Why tree, configured as cfg (kbuild.config()), doesn't build obj
    (no way of kbuild.enabled_by()'s has all its symbols set: those the
    nearest lacks), or None."""
    ways = kbuild.enabled_by(tree, obj[:-2] + ".c")
    if ways is None:
        return "no Makefile of the tree names it"
    offs = [[s for s in w if cfg.get(s) not in ("y", "m")] for w in ways]
    if not all(offs):
        return None
    return "%s not set in the tree's .config" % ", ".join(min(offs, key=len))


def build_each(tree, patches, paths):
    """Apply the series to a copy of tree patch by patch, compiling the
    objects each touches (W=1): a patch's objects in the tree, where its
    .config enables them (a line says which it doesn't), a driver's files
    out of it: [(patch, ok, [lines], whether anything was compiled)], or
    why not."""
    if not os.path.isfile(os.path.join(tree, "Module.symvers")):
        return "%s is not a built kernel tree" % tree
    copy = scratch_tree(tree)
    cfg = kbuild.config(copy)
    out = []
    for patch, path in zip(patches, paths):
        p = apply(copy, path)
        if p.returncode:
            out.append((path, False, p.stdout.splitlines(), False))
            break
        lines, ok, built = [], True, []
        for obj in patch.objects:
            why = unbuildable(copy, obj, cfg)
            if why:
                lines.append("%s: not built: %s" % (obj, why))
                continue
            built.append(obj)
            q = subprocess.run(["make", "-C", copy, "W=1", obj],
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True,
                               env=dict(os.environ, LANG="C", LC_ALL="C"))
            warn = [x for x in q.stdout.splitlines()
                    if re.search(r"\b(error|warning):", x)]
            if q.returncode or warn:
                ok = False
                lines += warn or q.stdout.splitlines()[-5:]
        drivers = [r for r in patch.edits if r not in patch.unbuilt] \
            if patch.kind == "driver" else []
        if patch.kind != "driver" and not patch.objects:
            lines.append("no object of its own, nor one that uses its "
                         "names: nothing compiled")
        lines += ["%s: not compiled: the original does not build against "
                  "this tree" % r for r in sorted(patch.unbuilt)]
        if drivers:
            files = []
            for r in drivers:
                with open(os.path.join(copy, r)) as fh:
                    files.append((os.path.join(copy, r), fh.read()))
            res = compile_module(copy, files)
            if isinstance(res, str):
                ok, lines = False, lines + [res]
            else:
                for r, (done, diags) in res.items():
                    if not done:
                        ok = False
                        lines += [x for kind, x in diags if kind == "error"]
        out.append((path, ok, lines, bool(built or drivers)))
        if not ok:
            break
    return out


def run(module, tree, outdir, report):
    """Upstream mode after the module's conversion: write the series,
    check it; report(line) for each line to print.  0 if every check
    passed, else 1."""
    patches, left = plan(module, tree)
    for path, why in left:
        report("series: left out: %s: %s" % (path, why))
    if not patches:
        report("series: nothing to send")
        return 1 if left else 0
    name, email, own = identity(tree)
    try:
        paths = write(patches, outdir, (name, email))
    except subprocess.CalledProcessError as e:
        report("series: not written: git %s failed: %s" % (
            e.cmd[3] if len(e.cmd) > 3 else "", (e.stderr or "").strip()))
        return 1
    status = 1 if left else 0
    report("series: author and Signed-off-by: %s <%s>%s" % (
        name, email, "" if own else
        ": a placeholder, since git has no user.name or user.email: "
        "replace it in each patch (or set both and run again)"))
    for path, patch in zip(paths, patches):
        report("series: wrote " + path)
        if patch.objects:
            report("series: %s: objects that define or use its names: %s"
                   % (os.path.basename(path), configs(tree, patch.objects)))
        with open(path) as fh:
            added = "".join(line[1:] for line in fh
                            if line.startswith("+") and
                            not line.startswith("+++"))
            if KIT_INCLUDE.search(added):
                report("series: %s: a kit include" % path)
                status = 1
        found = checkpatch(tree, path)
        report("series: %s: checkpatch --strict: %s" % (
            os.path.basename(path), "clean" if not found else
            "%d findings" % len(found)))
        for line in found:
            report("series:   " + line)
        status |= bool(found)
    built = build_each(tree, patches, paths)
    if isinstance(built, str):
        report("series: build: not checked: " + built)
        return status
    for path, ok, lines, compiled in built:
        report("series: %s: %s%s" % (os.path.basename(path), (
            "builds (W=1)" if compiled else "applies") if ok else
            "does not build:" if compiled else "does not apply:",
            ", but not all its objects are built:" if ok and any(
                ": not built: " in x for x in lines) else ""))
        for line in lines:
            report("series:   " + line)
        status |= not ok
    for path in paths[len(built):]:
        report("series: %s: not built (an earlier patch failed)" %
               os.path.basename(path))
    report("series: booting the tree with the series: not done here "
           "(make convert-upstream builds and boots it)")
    return status
