# fplocals: 4 KB of locals in main and printf of doubles on the defaults (test/qemu/test_stack_guard.sh).
