"""Pass/fail bookkeeping shared by the tests/vm/check_vm_*.py checkers."""


class Checks:
    """check() prints one "ok" / "FAIL" line per expectation; summary()
    prints the counts and returns the process exit status (1 on a failure)."""

    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, ok, detail=""):
        self.passed += bool(ok)
        self.failed += not ok
        print(f"{'ok   ' if ok else 'FAIL '} {name}" + ("" if ok else f": {detail}"))

    def summary(self):
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0
