package sftpd

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// fakeSignIn is a signIn on a clock the test moves.
func fakeSignIn(l SignInLimits) (*signIn, *time.Time) {
	g := newSignIn(l, slog.New(slog.DiscardHandler))
	now := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	g.now = func() time.Time { return now }
	return g, &now
}

func addr(ip string) net.Addr { return &net.TCPAddr{IP: net.ParseIP(ip), Port: 40000} }

func TestSignInLocksAUserOutWithGrowingLocks(t *testing.T) {
	g, now := fakeSignIn(SignInLimits{UserFailures: 3, AddressFailures: 100, Lockout: time.Second, MaxLockout: 4 * time.Second})
	verified := 0
	try := func(right bool) error {
		return g.check("partner", addr("192.0.2.1"), func(func() bool) (bool, error) { verified++; return right, nil })
	}
	steps := []struct {
		advance  time.Duration
		right    bool
		want     error
		verified int // comparisons so far
	}{
		{0, false, errWrongPassword, 1},
		{0, false, errWrongPassword, 2},
		{0, false, errWrongPassword, 3}, // the third locks for 1 s
		{0, true, errLockedOut, 3},      // refused without a comparison, the right password too
		{999 * time.Millisecond, true, errLockedOut, 3},
		{time.Millisecond, false, errWrongPassword, 4}, // the lock is over; this failure locks for 2 s
		{time.Second, true, errLockedOut, 4},
		{time.Second, false, errWrongPassword, 5}, // 4 s
		{3 * time.Second, true, errLockedOut, 5},
		{time.Second, false, errWrongPassword, 6}, // at most 4 s
		{4 * time.Second, true, nil, 7},           // the right password, once free, signs in and clears the count
		{0, false, errWrongPassword, 8},
		{0, false, errWrongPassword, 9},
		{0, true, nil, 10},
	}
	for i, s := range steps {
		*now = now.Add(s.advance)
		if err := try(s.right); !errors.Is(err, s.want) || verified != s.verified {
			t.Fatalf("step %d: %v after %d comparisons, want %v after %d", i, err, verified, s.want, s.verified)
		}
	}
}

func TestSignInLocksAnAddressOutAcrossUsers(t *testing.T) {
	g, now := fakeSignIn(SignInLimits{UserFailures: 100, AddressFailures: 5, Lockout: time.Minute})
	wrong := func(func() bool) (bool, error) { return false, nil }
	for i := range 5 {
		if err := g.check(fmt.Sprintf("user-%d", i), addr("192.0.2.7"), wrong); !errors.Is(err, errWrongPassword) {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	right := func(func() bool) (bool, error) { return true, nil }
	if err := g.check("someone-else", addr("192.0.2.7"), right); !errors.Is(err, errLockedOut) {
		t.Errorf("the guessing address, another user: %v", err)
	}
	if err := g.check("someone-else", addr("192.0.2.8"), right); err != nil {
		t.Errorf("another address: %v", err)
	}
	// Failures are forgotten after Forget.
	*now = now.Add(16 * time.Minute)
	if err := g.check("user-0", addr("192.0.2.7"), wrong); !errors.Is(err, errWrongPassword) {
		t.Errorf("after the lock: %v", err)
	}
	if err := g.check("user-0", addr("192.0.2.7"), right); err != nil {
		t.Errorf("one failure after Forget locked the address: %v", err)
	}
}

func TestSignInTrackingIsBounded(t *testing.T) {
	g, _ := fakeSignIn(SignInLimits{MaxTracked: 100})
	for i := range 1000 {
		g.check(fmt.Sprintf("guess-%d", i), addr(fmt.Sprintf("10.0.%d.%d", i/256, i%256)), func(func() bool) (bool, error) { return false, nil })
	}
	if n, m := len(g.users.entries), len(g.addresses.entries); n > 100 || m > 100 {
		t.Errorf("tracking %d users and %d addresses, want at most 100 each", n, m)
	}
	// A name of any length is one entry, not kept whole.
	g.check(string(bytes.Repeat([]byte("x"), 100000)), addr("10.9.9.9"), func(func() bool) (bool, error) { return false, nil })
	for k := range g.users.entries {
		if len(k) > 64 {
			t.Errorf("a user name of %d bytes is kept", len(k))
		}
	}
}

// TestPasswordComparisonsRunOneAtATime: bcrypt never takes more than one
// core; callers past VerifyWait are refused busy; an unknown user and a
// user without a password are compared (against the dummy hash) like a
// known one, and refused.
func TestPasswordComparisonsRunOneAtATime(t *testing.T) {
	g, _ := fakeSignIn(SignInLimits{VerifyWait: time.Second})
	var running, most, calls atomic.Int32
	var hashes sync.Map
	g.compare = func(hash, password []byte) error {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		calls.Add(1)
		hashes.Store(string(hash), true)
		time.Sleep(10 * time.Millisecond)
		running.Add(-1)
		if string(password) == "right" && string(hash) == "$2a$10$known" {
			return nil
		}
		return errors.New("mismatch")
	}
	cases := []struct {
		hash  string
		found bool
		pw    string
		want  bool
	}{
		{"$2a$10$known", true, "right", true},
		{"$2a$10$known", true, "wrong", false},
		{"", false, "right", false}, // unknown user
		{"", true, "right", false},  // a user without a password
	}
	var wg sync.WaitGroup
	for range 4 {
		for _, c := range cases {
			wg.Go(func() {
				if ok, err := g.verifyHash(c.hash, c.found, c.pw, func() bool { return false }); ok != c.want || err != nil {
					t.Errorf("%+v: %v %v", c, ok, err)
				}
			})
		}
	}
	wg.Wait()
	if most.Load() != 1 || calls.Load() != 16 {
		t.Errorf("%d comparisons, at most %d at once; want 16, one at a time", calls.Load(), most.Load())
	}
	if _, ok := hashes.Load(string(dummyHash)); !ok {
		t.Error("an unknown user was not compared against the dummy hash")
	}

	// Waiting is bounded in time.
	g.limits.VerifyWait = 5 * time.Millisecond
	busy := atomic.Int32{}
	for range 6 {
		wg.Go(func() {
			if _, err := g.verifyHash("$2a$10$known", true, "wrong", func() bool { return false }); errors.Is(err, errBusy) {
				busy.Add(1)
			}
		})
	}
	wg.Wait()
	if busy.Load() == 0 {
		t.Error("no caller was refused after VerifyWait while comparisons queued")
	}
}

func TestDummyHashCostsWhatAUsersHashCosts(t *testing.T) {
	if cost, err := bcrypt.Cost(dummyHash); err != nil || cost != bcrypt.DefaultCost {
		t.Errorf("dummy hash cost %d (%v), want bcrypt.DefaultCost %d, that of `clearhouse sftp users`", cost, err, bcrypt.DefaultCost)
	}
}

// TestABurstIsNotComparedPastTheLock: attempts that all passed the first
// look at the lock, then queued for the comparison slot, are refused
// without a comparison once the lock falls.
func TestABurstIsNotComparedPastTheLock(t *testing.T) {
	g := newSignIn(SignInLimits{UserFailures: 100, AddressFailures: 2, Lockout: time.Minute}, slog.New(slog.DiscardHandler))
	var compared atomic.Int32
	g.compare = func(hash, password []byte) error {
		compared.Add(1)
		time.Sleep(20 * time.Millisecond)
		return errors.New("mismatch")
	}
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() {
			g.check(fmt.Sprintf("user-%d", i), addr("192.0.2.9"), func(locked func() bool) (bool, error) {
				return g.verifyHash("$2a$10$known", true, "wrong", locked)
			})
		})
	}
	wg.Wait()
	if n := compared.Load(); n > 3 {
		t.Errorf("%d comparisons for a burst of 10 from an address locked after 2", n)
	}
}
