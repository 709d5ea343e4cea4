package claims

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"

	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// guideOutput is what writing a claim's Guide JSON left besides the JSON:
// the fragments its outbound transaction setting enables (none by default).
type guideOutput struct {
	fragments []store.Fragment
	info      *core.FragmentsInfo // nil without fragments
}

func (o guideOutput) keys() []string {
	keys := make([]string, 0, len(o.fragments)+2)
	for _, f := range o.fragments {
		keys = append(keys, f.Output.Key)
	}
	return keys
}

// into puts the fragments on the transaction record.
func (o guideOutput) into(t *store.Transaction) {
	if o.info == nil {
		return
	}
	t.FragmentCount, t.FragmentBatchSize, t.FragmentKeyName = o.info.FragmentCount, o.info.BatchSize, o.info.KeyName
	t.Fragments = o.fragments
}

// guideJSON writes the Guide JSON of the 837D's one transaction set to w and
// checks it against the guide in the same pass: a claim the rules let
// through but the guide refuses is a bug, reported rather than sent. When
// setting enables fragments, the same pass cuts them into the blob store
// as the inbound path does (keys under transaction txID).
func (s *Service) guideJSON(ctx context.Context, k *claimKind, w io.Writer, x []byte, setting store.TransactionSetting, txID string) (guideOutput, error) {
	g, _ := guide.Lookup("837", k.version)
	ce := encoders.Get().(*claimEncoder)
	defer func() {
		ce.enc.Reset(io.Discard) // keep no claim's JSON in the pool
		encoders.Put(ce)
	}()
	ce.enc.Reset(w)
	ce.problems = ce.problems[:0]
	frags, err := core.NewFragments(ctx, s.opts.Blob, g, ce.enc, txID, setting)
	if err != nil {
		return guideOutput{}, &NotConfiguredError{Message: "The outbound 837 transaction setting cannot be used: " + err.Error()}
	}
	var out guideOutput
	err = ce.encode(g, k, x, frags)
	if err == nil && frags != nil {
		out.fragments, err = frags.End()
		out.info = frags.Info()
	}
	if err != nil {
		if frags != nil {
			s.discard(frags.Abort()...)
		}
		return guideOutput{}, err
	}
	return out, nil
}

// claimEncoder is a validating Guide JSON encoder kept for the next claim:
// a new encoder allocates a 256 KiB output buffer, more than everything
// else a claim allocates.
type claimEncoder struct {
	enc      *guide.JSONEncoder
	problems []string // what the guide refuses, at most 10
}

var encoders = sync.Pool{New: func() any {
	ce := &claimEncoder{enc: guide.NewJSONEncoder(io.Discard)}
	ce.enc.SetValidation(guide.Options{}, func(f x12.Finding) {
		if f.Rejects() && len(ce.problems) < 10 {
			ce.problems = append(ce.problems, f.Message)
		}
	})
	return ce
}}

// encode is guideJSON's pass over the segments.
func (ce *claimEncoder) encode(g *guide.Guide, k *claimKind, x []byte, frags *core.Fragments) error {
	enc := ce.enc
	r := x12.NewReader(bytes.NewReader(x))
	in := false
	for {
		seg, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch {
		case seg.Is("ST"):
			enc.Begin(g, seg)
			in = true
			if frags != nil {
				err = frags.Begin(seg)
			}
		case in:
			enc.Segment(seg)
			if frags != nil {
				err = frags.Segment(seg, enc.LastStep())
			}
			if seg.Is("SE") {
				enc.End()
				in = false
			}
		}
		if err != nil {
			return err
		}
	}
	if err := enc.Flush(); err != nil {
		return err
	}
	if len(ce.problems) > 0 {
		fields := make([]FieldError, len(ce.problems))
		for i, p := range ce.problems {
			fields[i] = FieldError{Path: "/", Message: "the " + k.form + " built from this claim does not pass the " + k.version + " guide: " + p}
		}
		return invalid(fields, 0)
	}
	return nil
}

// discard deletes blobs written under fresh keys that nothing will refer
// to (their records were not committed).
func (s *Service) discard(keys ...string) {
	var errs []error
	for _, k := range keys {
		errs = append(errs, s.opts.Blob.Delete(context.Background(), k))
	}
	if err := errors.Join(errs...); err != nil {
		s.opts.Logger.Warn("claims: delete unused blobs", "error", err.Error())
	}
}
