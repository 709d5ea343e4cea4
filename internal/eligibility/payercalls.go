package eligibility

import "sync"

// DefaultPayerCallsPerKey is how many checks one API key may have waiting
// on one payer connection at once unless Config says otherwise. A front
// desk never comes close; a batch script that fires hundreds of checks at
// once does, and without the cap it would take every session a payer
// allows a clearinghouse (payers throttle, or block the NPI, when one
// submitter floods them) from every other client.
const DefaultPayerCallsPerKey = 10

// payerCalls counts the exchanges in flight per (caller, connection).
// It is per process: behind N replicas a key may have N times the cap.
type payerCalls struct {
	max      int // 0: no cap
	mu       sync.Mutex
	inFlight map[payerCallKey]int // entries are deleted at zero, so it stays small
}

type payerCallKey struct{ caller, connection string }

// acquire takes a slot, or reports that the caller already has max
// exchanges in flight on that connection. Every true must be released.
func (p *payerCalls) acquire(k payerCallKey) bool {
	if p.max <= 0 {
		return true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inFlight[k] >= p.max {
		return false
	}
	if p.inFlight == nil {
		p.inFlight = map[payerCallKey]int{}
	}
	p.inFlight[k]++
	return true
}

func (p *payerCalls) release(k payerCallKey) {
	if p.max <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inFlight[k] <= 1 {
		delete(p.inFlight, k)
		return
	}
	p.inFlight[k]--
}
