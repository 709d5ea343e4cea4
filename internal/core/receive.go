package core

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
)

// ReceiveParams describe a file handed over by a transport.
type ReceiveParams struct {
	AccountID string
	Mode      string // store.ModeTest or store.ModeProduction
	// Name and Dirname are where the file came from (the execution's
	// source); Name is required.
	Name    string
	Dirname string
	// ConnectionID is the connection the file arrived through, if any.
	ConnectionID string
	Body         io.Reader
	// ExecutionID, when set (a UUID the transport chose before taking the
	// file), makes Receive idempotent: a second call with the same id
	// returns the execution the first one recorded. Transports that claim
	// a file before handing it over use it to survive a crash in between.
	ExecutionID string
}

// Errors of Receive that describe the caller's input.
var (
	ErrFileTooLarge = errors.New("core: file too large")
	ErrEmptyFile    = errors.New("core: empty file")
	ErrBadName      = errors.New("core: bad file name")
	// ErrBadDirname is an ErrBadName about the directory name.
	ErrBadDirname = fmt.Errorf("%w (directory)", ErrBadName)
)

// processPayload is the JSON payload of a ProcessKind job.
type processPayload struct {
	ExecutionID string `json:"executionId"`
	AccountID   string `json:"accountId"`
}

// Receive is the one entry point of inbound files, for every transport
// (upload, DIRECTORY and SFTP connections, the mock payers). It stores the
// bytes in the blob store, then creates the execution (RECEIVED) and its
// process job in one database transaction, and returns the execution.
// When it returns an error nothing was recorded (a stored blob without a
// row is removed).
func (s *Service) Receive(ctx context.Context, p ReceiveParams) (store.Execution, error) {
	if err := checkName(p.Name); err != nil {
		return store.Execution{}, err
	}
	if len(p.Dirname) > 1024 || !utf8.ValidString(p.Dirname) || strings.ContainsFunc(p.Dirname, unicode.IsControl) {
		return store.Execution{}, fmt.Errorf("%w: the directory name is longer than 1024 bytes, is not UTF-8 text or holds control characters", ErrBadDirname)
	}
	if p.Mode != store.ModeTest && p.Mode != store.ModeProduction {
		return store.Execution{}, fmt.Errorf("core: mode %q is neither test nor production", p.Mode)
	}
	now := s.opts.Clock.Now().UTC()
	fileType, contentType := fileTypeOf(p.Name)
	if p.ExecutionID == "" {
		p.ExecutionID = store.NewUUID()
	} else if prev, err := s.opts.Store.GetExecution(ctx, p.AccountID, p.ExecutionID); err == nil {
		return prev, nil // received before a crash
	}
	e := store.Execution{
		ID: p.ExecutionID, AccountID: p.AccountID, Mode: p.Mode, Direction: store.DirectionInbound,
		Status: store.ExecutionReceived, FileType: fileType, SourceDirname: p.Dirname, SourceName: p.Name,
		ConnectionID: p.ConnectionID, CreatedAt: now, UpdatedAt: now,
	}
	e.Input = store.Artifact{Key: executionInputKey(e.ID), ContentType: contentType}
	body := &limitedCounter{r: p.Body, limit: s.opts.MaxFileBytes}
	// The blob's own type is what an object store's presigned link serves.
	if err := s.opts.Blob.Put(ctx, e.Input.Key, body, ServedContentType(contentType)); err != nil {
		s.discard(e.Input.Key)
		if body.over {
			return store.Execution{}, fmt.Errorf("%w: larger than the limit of %d bytes", ErrFileTooLarge, s.opts.MaxFileBytes)
		}
		return store.Execution{}, fmt.Errorf("core: store file: %w", err)
	}
	if body.n == 0 {
		s.discard(e.Input.Key)
		return store.Execution{}, ErrEmptyFile
	}
	e.Input.Size = body.n
	// rolledBack: the work failed inside the transaction. An error from the
	// commit itself leaves the outcome unknown, so the file must stay.
	rolledBack := false
	err := s.opts.Store.InTx(ctx, func(tx store.Queries) (err error) {
		defer func() { rolledBack = err != nil }()
		if err := tx.InsertExecution(ctx, e); err != nil {
			return err
		}
		_, err = s.opts.Jobs.Enqueue(ctx, tx, ProcessKind, processPayload{ExecutionID: e.ID, AccountID: e.AccountID},
			jobs.ForTenant(e.AccountID, e.Mode))
		return err
	})
	if errors.Is(err, store.ErrConflict) {
		if prev, gerr := s.opts.Store.GetExecution(ctx, p.AccountID, p.ExecutionID); gerr == nil {
			return prev, nil // a concurrent call with the same id won
		}
	}
	if err != nil {
		if rolledBack {
			s.discard(e.Input.Key)
		}
		return store.Execution{}, fmt.Errorf("core: record execution: %w", err)
	}
	return e, nil
}

// discard removes a blob nothing refers to, best effort.
func (s *Service) discard(key string) {
	if err := s.opts.Blob.Delete(context.Background(), key); err != nil {
		s.opts.Logger.Warn("core: could not remove an unreferenced blob", "key", key, "error", err.Error())
	}
}

func checkName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: a file name is required", ErrBadName)
	case len(name) > 255:
		return fmt.Errorf("%w: the file name is longer than 255 bytes", ErrBadName)
	case !utf8.ValidString(name):
		// PostgreSQL refuses such text (the upload answered 503 there and
		// 202 on SQLite): the name is refused before it is stored.
		return fmt.Errorf("%w: the file name is not UTF-8 text", ErrBadName)
	case strings.ContainsFunc(name, unicode.IsControl):
		return fmt.Errorf("%w: the file name holds control characters", ErrBadName)
	}
	return nil
}

// nonEDI maps the extensions of files that are stored and reported but not
// parsed (spec §6, file.processed.v2) to their file type and media type.
var nonEDI = map[string][2]string{
	".json": {"json", "application/json"},
	".csv":  {"csv", "text/csv"},
	".tsv":  {"tsv", "text/tab-separated-values"},
	".xml":  {"xml", "application/xml"},
	".xls":  {"xls", "application/vnd.ms-excel"},
	".xlsx": {"xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
	".pdf":  {"pdf", "application/pdf"},
}

// FileTypeX12 is the file type of everything not in nonEDI.
const FileTypeX12 = "x12"

func fileTypeOf(name string) (fileType, contentType string) {
	if t, ok := nonEDI[strings.ToLower(path.Ext(name))]; ok {
		return t[0], t[1]
	}
	return FileTypeX12, "application/edi-x12"
}

// limitedCounter counts what is read and fails past limit.
type limitedCounter struct {
	r     io.Reader
	limit int64
	n     int64
	over  bool
}

func (l *limitedCounter) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.n += int64(n)
	if l.n > l.limit {
		l.over = true
		return n, ErrFileTooLarge
	}
	return n, err
}
