// The two contracts the chain uses, written in EVM assembly (asm.go), and
// their calldata.
//
// Token: a minimal ERC-20 with the standard storage layout of a Solidity
// token whose `balanceOf` mapping is slot 0 and `allowance` mapping slot 1:
//
//	balance[a]      at keccak256(pad32(a) . pad32(0))
//	allowance[o][s] at keccak256(pad32(s) . keccak256(pad32(o) . pad32(1)))
//
// and the standard selectors and events, so its receipts and logs look like
// a real token's:
//
//	transfer(address,uint256)  0xa9059cbb  reverts when the balance is short,
//	                                       emits Transfer(from, to, value)
//	approve(address,uint256)   0x095ea7b3  emits Approval(owner, spender, value)
//	balanceOf(address)         0x70a08231
//
// Anything else reverts. There is no transferFrom: the generator only needs
// the state writes of transfers and approvals.
//
// Store: a storage-heavy contract standing in for DEX pools, NFT mints and
// the like: its calldata is a list of 64-byte (key, value) pairs, and it runs
// SSTORE(key, value) for each. A zero value clears the slot.
package chaingen

import (
	"encoding/binary"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"
)

var (
	selTransfer   = []byte{0xa9, 0x05, 0x9c, 0xbb}
	selApprove    = []byte{0x09, 0x5e, 0xa7, 0xb3}
	selBalanceOf  = []byte{0x70, 0xa0, 0x82, 0x31}
	topicTransfer = crypto.Keccak256([]byte("Transfer(address,address,uint256)"))
	topicApproval = crypto.Keccak256([]byte("Approval(address,address,uint256)"))
)

// mappingSlot gives the slot of mapping[key] for a mapping at slot base.
func mappingSlot(key common.Hash, base common.Hash) common.Hash {
	return crypto.Keccak256Hash(key[:], base[:])
}

// TokenBalanceSlot is the storage slot of balance[holder].
func TokenBalanceSlot(holder common.Address) common.Hash {
	return mappingSlot(common.BytesToHash(holder[:]), common.Hash{})
}

// TokenAllowanceSlot is the storage slot of allowance[owner][spender].
func TokenAllowanceSlot(owner, spender common.Address) common.Hash {
	inner := mappingSlot(common.BytesToHash(owner[:]), common.BigToHash(common.Big1))
	return mappingSlot(common.BytesToHash(spender[:]), inner)
}

// tokenRuntime is the token's deployed code.
func tokenRuntime() []byte {
	a := newAsm()
	// Dispatch on the selector (calldata's first 4 bytes).
	a.pushN(0).op(vm.CALLDATALOAD).pushN(0xe0).op(vm.SHR)
	for _, c := range []struct {
		sel   []byte
		label string
	}{{selTransfer, "transfer"}, {selApprove, "approve"}, {selBalanceOf, "balanceOf"}} {
		a.op(vm.DUP1).push(c.sel).op(vm.EQ).pushLabel(c.label).op(vm.JUMPI)
	}
	a.label("fail").pushN(0).op(vm.DUP1, vm.REVERT)

	// transfer(to, amount)
	a.label("transfer")
	// slotFrom = keccak(caller . 0)
	a.op(vm.CALLER).pushN(0).op(vm.MSTORE).pushN(0).pushN(32).op(vm.MSTORE).pushN(64).pushN(0).op(vm.KECCAK256)
	a.op(vm.DUP1, vm.SLOAD)                                      // [slotFrom, balFrom]
	a.pushN(36).op(vm.CALLDATALOAD)                              // [slotFrom, balFrom, amt]
	a.op(vm.DUP1, vm.DUP3, vm.LT).pushLabel("fail").op(vm.JUMPI) // balFrom < amt -> revert
	a.op(vm.DUP1, vm.DUP3, vm.SUB)                               // [.., amt, balFrom-amt]
	a.op(vm.DUP4, vm.SSTORE)                                     // balance[from] -= amt
	// slotTo = keccak(to . 0); mem[32..64] is still 0
	a.pushN(4).op(vm.CALLDATALOAD).pushN(0).op(vm.MSTORE).pushN(64).pushN(0).op(vm.KECCAK256) // [.., amt, slotTo]
	a.op(vm.DUP1, vm.SLOAD, vm.DUP3, vm.ADD, vm.SWAP1, vm.SSTORE)                             // balance[to] += amt
	// Transfer(caller, to, amt): data = amt
	a.pushN(0).op(vm.MSTORE)
	a.pushN(4).op(vm.CALLDATALOAD, vm.CALLER).push(topicTransfer).pushN(32).pushN(0).op(vm.LOG3)
	a.label("true").pushN(1).pushN(0).op(vm.MSTORE).pushN(32).pushN(0).op(vm.RETURN)

	// approve(spender, amount)
	a.label("approve")
	a.op(vm.CALLER).pushN(0).op(vm.MSTORE).pushN(1).pushN(32).op(vm.MSTORE).pushN(64).pushN(0).op(vm.KECCAK256)
	a.pushN(32).op(vm.MSTORE) // mem[32] = keccak(owner . 1)
	a.pushN(4).op(vm.CALLDATALOAD).pushN(0).op(vm.MSTORE).pushN(64).pushN(0).op(vm.KECCAK256)
	a.pushN(36).op(vm.CALLDATALOAD, vm.SWAP1, vm.SSTORE) // allowance[owner][spender] = amt
	a.pushN(36).op(vm.CALLDATALOAD).pushN(0).op(vm.MSTORE)
	a.pushN(4).op(vm.CALLDATALOAD, vm.CALLER).push(topicApproval).pushN(32).pushN(0).op(vm.LOG3)
	a.pushLabel("true").op(vm.JUMP)

	// balanceOf(holder)
	a.label("balanceOf")
	a.pushN(4).op(vm.CALLDATALOAD).pushN(0).op(vm.MSTORE).pushN(0).pushN(32).op(vm.MSTORE).pushN(64).pushN(0).op(vm.KECCAK256)
	a.op(vm.SLOAD).pushN(0).op(vm.MSTORE).pushN(32).pushN(0).op(vm.RETURN)
	return a.bytes()
}

// storeRuntime is the storage-heavy contract's deployed code.
func storeRuntime() []byte {
	a := newAsm()
	a.pushN(0) // [i]
	a.label("loop")
	a.op(vm.DUP1, vm.CALLDATASIZE, vm.GT, vm.ISZERO).pushLabel("end").op(vm.JUMPI) // i >= size -> end
	a.op(vm.DUP1).pushN(32).op(vm.ADD, vm.CALLDATALOAD)                            // [i, value]
	a.op(vm.DUP2, vm.CALLDATALOAD, vm.SSTORE)                                      // SSTORE(key, value)
	a.pushN(64).op(vm.ADD).pushLabel("loop").op(vm.JUMP)
	a.label("end").op(vm.STOP)
	return a.bytes()
}

// initCode wraps runtime (plus unreachable padding after it, to give
// deployments a realistic code size) in constructor code that first runs
// prologue, then returns runtime+padding as the contract's code.
func initCode(prologue, runtime, padding []byte) []byte {
	code := append(append([]byte(nil), runtime...), padding...)
	// The copy/return tail has a fixed size: PUSH2 len PUSH2 off PUSH1 0
	// CODECOPY PUSH2 len PUSH1 0 RETURN = 3+3+2+1+3+2+1 = 15 bytes.
	off := len(prologue) + 15
	a := newAsm()
	a.code = append(a.code, prologue...)
	a.code = append(a.code, byte(vm.PUSH2), byte(len(code)>>8), byte(len(code)))
	a.code = append(a.code, byte(vm.PUSH2), byte(off>>8), byte(off))
	a.pushN(0).op(vm.CODECOPY)
	a.code = append(a.code, byte(vm.PUSH2), byte(len(code)>>8), byte(len(code)))
	a.pushN(0).op(vm.RETURN)
	if len(a.code) != off {
		panic("initCode: tail size changed")
	}
	return append(a.code, code...)
}

// tokenInit deploys a token whose whole supply belongs to the deployer.
func tokenInit(supply *uint256.Int, padding []byte) []byte {
	p := newAsm()
	p.op(vm.CALLER).pushN(0).op(vm.MSTORE).pushN(0).pushN(32).op(vm.MSTORE).pushN(64).pushN(0).op(vm.KECCAK256)
	s := supply.Bytes32()
	p.push(s[:]).op(vm.SWAP1, vm.SSTORE)
	return initCode(p.bytes(), tokenRuntime(), padding)
}

// storeInit deploys a Store contract.
func storeInit(padding []byte) []byte { return initCode(nil, storeRuntime(), padding) }

func word(b []byte) []byte { return common.LeftPadBytes(b, 32) }

func transferData(to common.Address, amount uint64) []byte {
	var v [8]byte
	binary.BigEndian.PutUint64(v[:], amount)
	return append(append(append([]byte(nil), selTransfer...), word(to[:])...), word(v[:])...)
}

func approveData(spender common.Address, amount uint64) []byte {
	var v [8]byte
	binary.BigEndian.PutUint64(v[:], amount)
	return append(append(append([]byte(nil), selApprove...), word(spender[:])...), word(v[:])...)
}

func balanceOfData(holder common.Address) []byte {
	return append(append([]byte(nil), selBalanceOf...), word(holder[:])...)
}

// storeData encodes (key, value) pairs for the Store contract.
func storeData(keys, values []common.Hash) []byte {
	out := make([]byte, 0, 64*len(keys))
	for i := range keys {
		out = append(out, keys[i][:]...)
		out = append(out, values[i][:]...)
	}
	return out
}
