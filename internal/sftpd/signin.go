package sftpd

import (
	"errors"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// SignInLimits bound password sign-ins: each check is a bcrypt comparison
// (~70 ms of CPU at cost 10), so an unlimited stream of wrong passwords
// would take the cores that serve the API and let an attacker guess at
// leisure. Zero fields take the defaults.
type SignInLimits struct {
	// UserFailures and AddressFailures are the wrong passwords a user name,
	// and a remote address, may give before being locked out (defaults 5
	// and 20: an office behind one address has several users).
	UserFailures, AddressFailures int
	// Lockout is the first lock (default 2 s); each further failure while
	// over the limit doubles it, up to MaxLockout (default 5 min). While
	// locked, every password is refused at once, the right one included,
	// without a bcrypt comparison.
	Lockout, MaxLockout time.Duration
	// Forget: failures older than this no longer count (default 15 min).
	Forget time.Duration
	// MaxTracked bounds the user names and the addresses remembered, each
	// (default 10,000); past it the stale ones go first, then any.
	MaxTracked int
	// Verifications is how many bcrypt comparisons run at once (default 1,
	// so sign-ins never take more than one core); others wait up to
	// VerifyWait (default 10 s) and are refused after, as are sign-ins past
	// MaxWaiting waiting ones (default 64).
	Verifications int
	VerifyWait    time.Duration
	MaxWaiting    int
}

func (l SignInLimits) withDefaults() SignInLimits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defd := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.UserFailures, 5)
	def(&l.AddressFailures, 20)
	defd(&l.Lockout, 2*time.Second)
	defd(&l.MaxLockout, 5*time.Minute)
	defd(&l.Forget, 15*time.Minute)
	def(&l.MaxTracked, 10000)
	def(&l.Verifications, 1)
	defd(&l.VerifyWait, 10*time.Second)
	def(&l.MaxWaiting, 64)
	return l
}

// Sign-in refusals. The client sees only that the sign-in failed; these
// go to the log.
var (
	errWrongPassword = errors.New("wrong username or password")
	errLockedOut     = errors.New("too many wrong passwords: locked out for now")
	errBusy          = errors.New("too many sign-ins at once: try again shortly")
)

// dummyHash is compared when the user is unknown or has no password, so
// that a refusal takes as long either way and does not tell which user
// names exist. Its cost is bcrypt.DefaultCost, that of `sftp users`.
var dummyHash = []byte("$2a$10$YZFE91QzOUn3JgpcTRtdZ.lTivIECL48kOctfGxi8f5bPXt.KiFTi")

// signIn is the server's password gate: per-user and per-address
// lockouts, and a bound on the bcrypt comparisons running at once.
type signIn struct {
	limits    SignInLimits
	now       func() time.Time
	slots     chan struct{}
	waiting   atomic.Int32
	users     failures
	addresses failures
	// compare is bcrypt's (a test counts the comparisons at once).
	compare func(hash, password []byte) error
	// lockedOut tells the log that a user or an address was locked.
	lockedOut func(user, addr string, userLocked, addrLocked bool)
}

func newSignIn(l SignInLimits, log *slog.Logger) *signIn {
	l = l.withDefaults()
	return &signIn{limits: l, now: time.Now, slots: make(chan struct{}, l.Verifications),
		lockedOut: func(user, addr string, userLocked, addrLocked bool) {
			log.Warn("sftp: sign-ins locked out after repeated wrong passwords",
				"user", user, "user_locked", userLocked, "remote", addr, "remote_locked", addrLocked)
		},
		users:     failures{limit: l.UserFailures, entries: map[string]*failure{}},
		addresses: failures{limit: l.AddressFailures, entries: map[string]*failure{}},
		compare:   bcrypt.CompareHashAndPassword}
}

// check runs verify unless the user or the address is locked out, and
// counts a wrong password against both. verify gets the lock test, to
// look again once it has waited for a slot: a burst of attempts that all
// passed the first look is not compared after the lock falls.
func (g *signIn) check(user string, remote net.Addr, verify func(locked func() bool) (bool, error)) error {
	if !validUser(user) {
		user = "\x00invalid" // one key for every malformed name, however long
	}
	addr := addressOf(remote)
	locked := func() bool {
		now := g.now()
		return g.users.locked(user, now) || g.addresses.locked(addr, now)
	}
	if locked() {
		return errLockedOut
	}
	ok, err := verify(locked)
	if err != nil {
		return err
	}
	if !ok {
		now := g.now()
		userLocked := g.users.fail(user, now, g.limits)
		addrLocked := g.addresses.fail(addr, now, g.limits)
		if userLocked || addrLocked {
			g.lockedOut(user, addr, userLocked, addrLocked)
		}
		return errWrongPassword
	}
	g.users.forget(user)
	return nil
}

// verifyHash compares password with a bcrypt hash in a free slot; an
// unknown user (found false) or one without a password (hash "") is
// compared against dummyHash, and refused, in the same time.
func (g *signIn) verifyHash(hash string, found bool, password string, locked func() bool) (bool, error) {
	if int(g.waiting.Add(1)) > g.limits.MaxWaiting {
		g.waiting.Add(-1)
		return false, errBusy
	}
	timer := time.NewTimer(g.limits.VerifyWait)
	defer timer.Stop()
	select {
	case g.slots <- struct{}{}:
		g.waiting.Add(-1)
	case <-timer.C:
		g.waiting.Add(-1)
		return false, errBusy
	}
	defer func() { <-g.slots }()
	if locked() {
		return false, errLockedOut
	}
	h := []byte(hash)
	if !found || hash == "" {
		h = dummyHash
	}
	match := g.compare(h, []byte(password)) == nil
	return match && found && hash != "", nil
}

// addressOf is the remote IP, without the port (each connection has its
// own).
func addressOf(a net.Addr) string {
	if a == nil {
		return ""
	}
	if host, _, err := net.SplitHostPort(a.String()); err == nil {
		return host
	}
	return a.String()
}

// failures counts recent wrong passwords per key (a user name or an
// address), in a map of bounded size.
type failures struct {
	limit   int
	mu      sync.Mutex
	entries map[string]*failure
}

type failure struct {
	count       int
	last        time.Time
	lockedUntil time.Time
}

func (f *failures) locked(key string, now time.Time) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	e := f.entries[key]
	return e != nil && now.Before(e.lockedUntil)
}

// fail counts a wrong password; past the limit the key is locked for
// Lockout, doubled for each failure beyond, up to MaxLockout. It reports
// whether this failure locked the key.
func (f *failures) fail(key string, now time.Time, l SignInLimits) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	e := f.entries[key]
	if e == nil {
		f.makeRoom(now, l)
		e = &failure{}
		f.entries[key] = e
	}
	if now.Sub(e.last) > l.Forget {
		e.count = 0
	}
	e.count++
	e.last = now
	if over := e.count - f.limit; over >= 0 {
		lock := l.Lockout
		for i := 0; i < over && lock < l.MaxLockout; i++ {
			lock *= 2
		}
		e.lockedUntil = now.Add(min(lock, l.MaxLockout))
		return true
	}
	return false
}

func (f *failures) forget(key string) {
	f.mu.Lock()
	delete(f.entries, key)
	f.mu.Unlock()
}

// makeRoom keeps the map under MaxTracked: stale entries go first (no
// failure within Forget, no lock), then any.
func (f *failures) makeRoom(now time.Time, l SignInLimits) {
	if len(f.entries) < l.MaxTracked {
		return
	}
	for k, e := range f.entries {
		if now.Sub(e.last) > l.Forget && !now.Before(e.lockedUntil) {
			delete(f.entries, k)
		}
	}
	for k := range f.entries {
		if len(f.entries) < l.MaxTracked {
			return
		}
		delete(f.entries, k)
	}
}
