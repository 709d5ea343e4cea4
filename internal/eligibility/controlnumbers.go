package eligibility

import (
	"context"
	"fmt"

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

// StoreControlNumbers returns the control-number source of Config.Numbers
// for a service: sequences named after the sender id (ISA06), reserved
// block numbers at a time (ControlNumberBlock when < 1).
func StoreControlNumbers(s store.ControlNumbers, senderID string, block int64) x12.ControlNumbers {
	if block < 1 {
		block = ControlNumberBlock
	}
	return &storeControlNumbers{
		interchange: store.NewControlNumberBlocks(s, "x12.interchange."+senderID, block),
		group:       store.NewControlNumberBlocks(s, "x12.group."+senderID, block),
	}
}

// ControlNumberBlock is how many ISA13s and GS06s a process reserves at a
// time. Every check takes one of each, and a reservation is a write
// transaction of its own, committed and fsynced while the block's lock
// makes every other check's 270 wait: with blocks of 100 (the store's
// default) that was 1.2 % of the server's CPU under hey and a stall every
// 50 checks. The cost of a larger block is the unused rest of it a
// stopping process skips (X12 allows gaps, not repeats; the sequences hold
// 999,999,999 numbers).
const ControlNumberBlock = 1000

// Next implements x12.ControlNumbers, which takes no context: a refill is
// bounded by the blocks' own timeout.
func (c *storeControlNumbers) Next(kind x12.ControlKind) (int64, error) {
	ctx := context.Background()
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
