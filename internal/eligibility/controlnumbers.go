package eligibility

import (
	"context"
	"fmt"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// storeControlNumbers draws ISA13 and GS06 from sequences in the store, so
// they stay unique across restarts and replicas (payers reject a repeated
// interchange number from the same sender). Each process reserves blocks,
// so the database is asked once per block, not once per check.
type storeControlNumbers struct {
	interchange, group *store.ControlNumberBlocks
}

// reserveTimeout bounds the store call that refills a block (x12's
// ControlNumbers.Next takes no context).
const reserveTimeout = 10 * time.Second

// StoreControlNumbers returns the control-number source of Config.Numbers
// for a service: sequences named after the sender id (ISA06), reserved
// block numbers at a time (store.DefaultControlNumberBlock when < 1).
func StoreControlNumbers(s store.ControlNumbers, senderID string, block int64) x12.ControlNumbers {
	return &storeControlNumbers{
		interchange: store.NewControlNumberBlocks(s, "x12.interchange."+senderID, block),
		group:       store.NewControlNumberBlocks(s, "x12.group."+senderID, block),
	}
}

func (c *storeControlNumbers) Next(kind x12.ControlKind) (int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), reserveTimeout)
	defer cancel()
	switch kind {
	case x12.InterchangeControl:
		return c.interchange.Next(ctx)
	case x12.GroupControl:
		return c.group.Next(ctx)
	case x12.TransactionControl:
		// ST02 must be unique within its group, and each of our groups
		// holds one transaction set.
		return 1, nil
	}
	return 0, fmt.Errorf("eligibility: no control number sequence for %s", kind)
}
