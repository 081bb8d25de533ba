# SPDX-License-Identifier: GPL-2.0
"""iterconv: scripts/convert, a legacy driver's .read/.write to
.read_iter/.write_iter with the semantic patches in convert/.  cli.py
says what it does and how to call it; each module does one part:

  cli           the command line, and what is printed where
  module        the files of one call planned together: which function
                is converted how, for every fops that names it
  registration  how each fops reaches the VFS (a call, a struct's member,
                an assignment), and whether it can take the iterator
                methods there (debugfs_create_file() -> _unsafe)
  file          one .c file: the module's decisions for it, the passes
  spatch        running spatch: the semantic patches, find.cocci
  rewrite       the text around spatch's output: declarations, helpers
                and guards before a fops, includes, layout
  checks        what may be converted natively; whether an output is
                whole (no buffer left, conditions kept)
  build         --tree: the call's outputs compiled against a tree, W=1,
                the originals first
  report        the report: what was done, what callers see differently,
                the author's decisions; the patch
  series        --upstream: a git format-patch series against a tree,
                the core patches first; checkpatch, built patch by patch
  names         a core patch's new globals across the tree: a static
                of the same name renamed first, any other clash refused
  kbuild        a tree's Makefiles (module lists, the config that builds
                an object), .config, and git grep across it
  kitsource     common/iterkit.h's helpers as the core patches' text
  preproc       #if conditions of each line, and where a name is defined
  text          C as text: comments, brackets, functions, expressions

Their unit tests are convert/test/units/test_MODULE.py."""
