// Package geth holds the file that apply.sh adds to go-ethereum
// (ftlsim_fdp.go.in) and tests of apply.sh on small fake trees.
package geth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const fakeGoMod = `module github.com/ethereum/go-ethereum

go 1.21

require (
	github.com/cockroachdb/pebble v1.1.1
	golang.org/x/sys v0.20.0
)
`

const fakePebbleGo = `package pebble

func New(file string, cache int, handles int, namespace string, readonly bool) (*Database, error) {
	opt := &pebble.Options{
		ReadOnly: readonly,
	}
	// Open the db and recover any potential corruptions
	innerDB, err := pebble.Open(file, opt)
	if err != nil {
		return nil, err
	}
	return &Database{db: innerDB}, nil
}
`

// fakeTree writes a minimal go-ethereum-shaped tree (gofmt-clean but not
// compilable: only what apply.sh inspects) and returns its path.
func fakeTree(t *testing.T, gomod, pebbleGo string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "ethdb", "pebble"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ethdb", "pebble", "pebble.go"), []byte(pebbleGo), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func apply(t *testing.T, dir string) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", "../apply.sh", dir)
	cmd.Env = append(os.Environ(), "PATH="+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err == nil {
		return string(out), 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	}
	t.Fatal(err)
	return "", -1
}

func TestApplyFakeTree(t *testing.T) {
	dir := fakeTree(t, fakeGoMod, fakePebbleGo)
	out, code := apply(t, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "ethdb", "pebble", "pebble.go"))
	got := string(b)
	hook := strings.Index(got, "if OptionsHook != nil {")
	comment := strings.Index(got, "\t// Open the db and recover")
	open := strings.Index(got, "innerDB, err := pebble.Open(file, opt)")
	if hook < 0 || !(hook < comment && comment < open) {
		t.Fatalf("hook not inserted above the open call:\n%s", got)
	}
	// Only lines were added; every original line is still there in order.
	if stripped := strings.Replace(got, got[strings.Index(got, "\t// ftlsim-geth-patch"):comment], "", 1); stripped != fakePebbleGo {
		t.Errorf("upstream lines changed:\n%s", stripped)
	}
	for _, f := range []string{"ftlsim_fdp.go", "fdpvfs/fs.go", "fdpvfs/tier.go"} {
		if _, err := os.Stat(filepath.Join(dir, "ethdb", "pebble", f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	if ents, _ := filepath.Glob(filepath.Join(dir, "ethdb", "pebble", "fdpvfs", "*_test.go")); len(ents) != 0 {
		t.Errorf("test files copied: %v", ents)
	}
	// A second application refuses.
	if out, code := apply(t, dir); code != 3 || !strings.Contains(out, "already patched") {
		t.Errorf("second apply: exit %d: %s", code, out)
	}
}

func TestApplyFailsLoudly(t *testing.T) {
	cases := []struct {
		name, gomod, pebbleGo, want string
	}{
		{"open moved", fakeGoMod, strings.Replace(fakePebbleGo, "innerDB, err := pebble.Open(file, opt)", "db, err := pebble.Open(file, opts)", 1), "the open call has moved"},
		{"open twice", fakeGoMod, fakePebbleGo + "\tinnerDB, err := pebble.Open(file, opt)\n", "found 2"},
		{"new changed", fakeGoMod, strings.Replace(fakePebbleGo, "func New(file string,", "func New(cfg Config,", 1), "constructor has changed"},
		{"options changed", fakeGoMod, strings.Replace(fakePebbleGo, "opt := &pebble.Options{", "opt := newOptions(", 1), "options construction has changed"},
		{"pebble v2", strings.Replace(fakeGoMod, "github.com/cockroachdb/pebble v1.1.1", "github.com/cockroachdb/pebble/v2 v2.1.7", 1), fakePebbleGo, "Pebble v1.1"},
		{"not geth", "module example.com/x\n", fakePebbleGo, "not go-ethereum"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := fakeTree(t, c.gomod, c.pebbleGo)
			before, _ := os.ReadFile(filepath.Join(dir, "ethdb", "pebble", "pebble.go"))
			out, code := apply(t, dir)
			if code != 3 || !strings.Contains(out, "error:") || !strings.Contains(out, c.want) {
				t.Errorf("exit %d, want 3 with %q: %s", code, c.want, out)
			}
			after, _ := os.ReadFile(filepath.Join(dir, "ethdb", "pebble", "pebble.go"))
			if string(after) != string(before) {
				t.Error("pebble.go modified despite the failure")
			}
			if _, err := os.Stat(filepath.Join(dir, "ethdb", "pebble", "fdpvfs")); err == nil {
				t.Error("fdpvfs copied despite the failure")
			}
		})
	}
	if _, code := apply(t, filepath.Join(t.TempDir(), "missing")); code != 2 {
		t.Errorf("missing dir: exit %d, want 2", code)
	}
}
