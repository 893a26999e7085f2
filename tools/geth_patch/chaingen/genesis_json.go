// genesis.json for `geth init`, readable by geth v1.14.8 and v1.16.x.
package chaingen

import (
	"encoding/json"
	"fmt"

	"github.com/ethereum/go-ethereum/core"
)

// GenesisJSON encodes g with go-ethereum's own encoding, plus
// "terminalTotalDifficultyPassed": true, which geth v1.14.x requires of a
// post-merge network (v1.16 dropped the field and ignores it). Keys come out
// sorted, so the bytes are a function of g.
func GenesisJSON(g *core.Genesis) ([]byte, error) {
	raw, err := json.Marshal(g)
	if err != nil {
		return nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, err
	}
	var cfg map[string]json.RawMessage
	if err := json.Unmarshal(top["config"], &cfg); err != nil {
		return nil, fmt.Errorf("genesis config: %w", err)
	}
	cfg["terminalTotalDifficultyPassed"] = json.RawMessage("true")
	if top["config"], err = json.Marshal(cfg); err != nil {
		return nil, err
	}
	return json.MarshalIndent(top, "", " ")
}
