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

const fakeCmdGo = `package utils

func ImportChain(chain *core.BlockChain, fn string) error {
	return nil
}
`

const fakeEventsGo = `package core

type ChainEvent struct {
	Header       *types.Header
	Receipts     []*types.Receipt
	Transactions []*types.Transaction
}
`

const fakeNetworkParamsGo = `package params

const (
	FullImmutabilityThreshold = 90000
)
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
	for name, text := range map[string]string{"cmd/utils/cmd.go": fakeCmdGo, "core/events.go": fakeEventsGo,
		"params/network_params.go": fakeNetworkParamsGo} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func apply(t *testing.T, dir string, flags ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", append(append([]string{"../apply.sh"}, flags...), dir)...)
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
	// ImportChain got the marker hook, with the v1.15+ chain event.
	cmdGo, _ := os.ReadFile(filepath.Join(dir, "cmd", "utils", "cmd.go"))
	if !strings.Contains(string(cmdGo), "fn string) error {\n\t// ftlsim-geth-patch: a marker per imported block (ftlsim_markers.go).\n\tdefer ftlsimImportMarkers(chain)()\n\treturn nil") {
		t.Errorf("ImportChain hook missing:\n%s", cmdGo)
	}
	markers, _ := os.ReadFile(filepath.Join(dir, "cmd", "utils", "ftlsim_markers.go"))
	if !strings.Contains(string(markers), "side.Mark(ev.Header.Number.Uint64())") || strings.Contains(string(markers), "@") {
		t.Errorf("ftlsim_markers.go: block number not substituted:\n%s", markers)
	}
	// Without --immutability the freezer threshold is upstream's.
	if np, _ := os.ReadFile(filepath.Join(dir, "params", "network_params.go")); string(np) != fakeNetworkParamsGo {
		t.Errorf("network_params.go changed without --immutability:\n%s", np)
	}
	// A second application refuses.
	if out, code := apply(t, dir); code != 3 || !strings.Contains(out, "already patched") {
		t.Errorf("second apply: exit %d: %s", code, out)
	}
}

func TestApplyImmutabilityAndV14Event(t *testing.T) {
	dir := fakeTree(t, fakeGoMod, fakePebbleGo)
	v14 := "package core\n\ntype ChainEvent struct {\n\tBlock *types.Block\n\tHash  common.Hash\n\tLogs  []*types.Log\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "core", "events.go"), []byte(v14), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := apply(t, dir, "--immutability", "704")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	np, _ := os.ReadFile(filepath.Join(dir, "params", "network_params.go"))
	if !strings.Contains(string(np), "FullImmutabilityThreshold = 704 // ftlsim-geth-patch") {
		t.Errorf("threshold not set:\n%s", np)
	}
	markers, _ := os.ReadFile(filepath.Join(dir, "cmd", "utils", "ftlsim_markers.go"))
	if !strings.Contains(string(markers), "side.Mark(ev.Block.NumberU64())") {
		t.Errorf("v1.14 chain event not used:\n%s", markers)
	}
	if out, code := apply(t, fakeTree(t, fakeGoMod, fakePebbleGo), "--immutability", "0"); code != 2 {
		t.Errorf("--immutability 0: exit %d, want 2: %s", code, out)
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
	cases = append(cases, struct{ name, gomod, pebbleGo, want string }{"import changed", fakeGoMod, fakePebbleGo, "ImportChain has changed"},
		struct{ name, gomod, pebbleGo, want string }{"event changed", fakeGoMod, fakePebbleGo, "the chain event has changed"})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := fakeTree(t, c.gomod, c.pebbleGo)
			switch c.name {
			case "import changed":
				os.WriteFile(filepath.Join(dir, "cmd", "utils", "cmd.go"), []byte(strings.Replace(fakeCmdGo, "fn string", "path string", 1)), 0o644)
			case "event changed":
				os.WriteFile(filepath.Join(dir, "core", "events.go"), []byte("package core\n\ntype ChainEvent struct {\n\tNumber uint64\n}\n"), 0o644)
			}
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
