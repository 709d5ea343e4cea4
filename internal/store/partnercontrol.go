package store

import (
	"context"
	"sync"
)

// InterchangeSequence names the control-number sequence of the
// partnership's ISA13. Sequences outlive the partnership row, so a
// partnership deleted and made again never repeats a number it sent.
func (p Partnership) InterchangeSequence() string {
	return "x12:" + p.AccountID + ":" + p.Mode + ":" + p.ID + ":isa13"
}

// GroupSequence names the control-number sequence of the partnership's GS06.
func (p Partnership) GroupSequence() string {
	return "x12:" + p.AccountID + ":" + p.Mode + ":" + p.ID + ":gs06"
}

// PartnershipControlNumbers hands out each partnership's ISA13 and GS06
// numbers from blocks reserved in the store (ControlNumberBlocks), so they
// never repeat across restarts and replicas. One per process; safe for
// concurrent use.
type PartnershipControlNumbers struct {
	store ControlNumbers
	size  int64

	mu     sync.Mutex
	blocks map[string]*ControlNumberBlocks // by sequence name
}

// NewPartnershipControlNumbers reserves size numbers at a time
// (DefaultControlNumberBlock when size < 1).
func NewPartnershipControlNumbers(s ControlNumbers, size int64) *PartnershipControlNumbers {
	return &PartnershipControlNumbers{store: s, size: size, blocks: map[string]*ControlNumberBlocks{}}
}

// NextInterchange returns the partnership's next ISA13.
func (c *PartnershipControlNumbers) NextInterchange(ctx context.Context, p Partnership) (int64, error) {
	return c.sequence(p.InterchangeSequence()).Next(ctx)
}

// NextGroup returns the partnership's next GS06.
func (c *PartnershipControlNumbers) NextGroup(ctx context.Context, p Partnership) (int64, error) {
	return c.sequence(p.GroupSequence()).Next(ctx)
}

func (c *PartnershipControlNumbers) sequence(name string) *ControlNumberBlocks {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.blocks[name]
	if b == nil {
		b = NewControlNumberBlocks(c.store, name, c.size)
		c.blocks[name] = b
	}
	return b
}
