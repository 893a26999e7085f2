// Package chaingen makes a chain of valid, signed, mainnet-like blocks with
// go-ethereum's own chain maker (core.GenerateChain / core.BlockGen) for
// `geth init` + `geth import`: ETH transfers, ERC-20 transfers and approvals,
// contract deployments and storage-heavy calls, with Zipf account popularity
// and new accounts over time. This file holds a tiny EVM assembler (opcodes,
// labels, two-byte jump targets) used to write the contracts in contracts.go.
package chaingen

import (
	"fmt"

	"github.com/ethereum/go-ethereum/core/vm"
)

// asm builds bytecode. Jump targets are written as PUSH2 placeholders and
// patched by bytes() once every label is known.
type asm struct {
	code   []byte
	labels map[string]int
	fixups map[int]string // offset of a PUSH2 immediate -> label
}

func newAsm() *asm { return &asm{labels: map[string]int{}, fixups: map[int]string{}} }

// op appends opcodes without immediates.
func (a *asm) op(ops ...vm.OpCode) *asm {
	for _, o := range ops {
		a.code = append(a.code, byte(o))
	}
	return a
}

// push appends the shortest PUSHn of v (1..32 bytes; PUSH1 0 for an empty v).
func (a *asm) push(v []byte) *asm {
	for len(v) > 1 && v[0] == 0 {
		v = v[1:]
	}
	if len(v) == 0 {
		v = []byte{0}
	}
	if len(v) > 32 {
		panic("asm: push of more than 32 bytes")
	}
	a.code = append(a.code, byte(vm.PUSH1)+byte(len(v)-1))
	a.code = append(a.code, v...)
	return a
}

// pushN appends a PUSH of a small integer.
func (a *asm) pushN(n uint64) *asm {
	var b [8]byte
	for i := 0; i < 8; i++ {
		b[7-i] = byte(n >> (8 * i))
	}
	return a.push(b[:])
}

// label marks a jump destination (and emits its JUMPDEST).
func (a *asm) label(name string) *asm {
	if _, dup := a.labels[name]; dup {
		panic("asm: duplicate label " + name)
	}
	a.labels[name] = len(a.code)
	return a.op(vm.JUMPDEST)
}

// pushLabel appends PUSH2 <label's offset>.
func (a *asm) pushLabel(name string) *asm {
	a.code = append(a.code, byte(vm.PUSH2), 0, 0)
	a.fixups[len(a.code)-2] = name
	return a
}

func (a *asm) bytes() []byte {
	out := append([]byte(nil), a.code...)
	for off, name := range a.fixups {
		dst, ok := a.labels[name]
		if !ok {
			panic(fmt.Sprintf("asm: undefined label %q", name))
		}
		out[off], out[off+1] = byte(dst>>8), byte(dst)
	}
	return out
}
