package core

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"
	"unicode"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/problem"
)

// DownloadsPath is where the embedded store's signed links are served.
const DownloadsPath = "/downloads/"

// ErrBadDownload: a download link that is malformed, forged or expired.
var ErrBadDownload = problem.New(problem.Forbidden, "core", "invalid or expired download link")

// download is what a signed link grants: one key, until an expiry.
type download struct {
	Key         string `json:"k"`
	ContentType string `json:"t"`
	Expires     int64  `json:"e"` // unix seconds
}

// DownloadURL returns a short-lived URL that fetches one stored document
// without an API key: a presigned URL when the blob store is an object
// store, else Clearhouse's own signed link under the public URL.
func (s *Service) DownloadURL(ctx context.Context, key, contentType string) (string, error) {
	u, err := s.opts.Blob.SignedURL(ctx, key, s.opts.DownloadTTL)
	if !errors.Is(err, blob.ErrNoSignedURLs) {
		return u, err
	}
	d := download{Key: key, ContentType: contentType, Expires: s.opts.Clock.Now().Add(s.opts.DownloadTTL).Unix()}
	payload, err := json.Marshal(d)
	if err != nil {
		return "", err
	}
	body := base64.RawURLEncoding.EncodeToString(payload)
	return s.opts.Events.PublicURL() + DownloadsPath + body + "." + s.sign(body), nil
}

func (s *Service) sign(body string) string {
	m := hmac.New(sha256.New, s.opts.DownloadSecret)
	m.Write([]byte("clearhouse-download:" + body))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Download is one document a signed link grants, opened.
type Download struct {
	Body io.ReadCloser
	// ContentType is what the document is served as (ServedContentType:
	// never a type a browser would render as a page).
	ContentType string
	// FileName is a name to save it under, made from its record ids.
	FileName string
}

// OpenDownload checks a signed link's token (the part after DownloadsPath)
// and opens the document it grants.
func (s *Service) OpenDownload(ctx context.Context, token string) (Download, error) {
	body, sig, ok := strings.Cut(token, ".")
	if !ok || !hmac.Equal([]byte(sig), []byte(s.sign(body))) {
		return Download{}, ErrBadDownload
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return Download{}, ErrBadDownload
	}
	var d download
	if err := json.Unmarshal(raw, &d); err != nil || d.Key == "" {
		return Download{}, ErrBadDownload
	}
	if s.opts.Clock.Now().Unix() > d.Expires {
		return Download{}, fmt.Errorf("%w: it expired at %s", ErrBadDownload, time.Unix(d.Expires, 0).UTC().Format(time.RFC3339))
	}
	r, err := s.opts.Blob.Get(ctx, d.Key)
	if err != nil {
		return Download{}, err
	}
	served := ServedContentType(d.ContentType)
	return Download{Body: r, ContentType: served, FileName: downloadName(d.Key, served)}, nil
}

// downloadName turns a blob key ("executions/<id>/input", made from record
// ids only) into a file name: "executions-<id>-input.x12"; a compressed
// document's is its document's ("…/output.json.s2" saves as "…-output.json").
func downloadName(key, served string) string {
	base := strings.TrimSuffix(key, blob.CompressedSuffix)
	base = strings.TrimSuffix(base, path.Ext(base))
	name := strings.Map(func(r rune) rune {
		if r < 0x80 && (r == '-' || r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return '-'
	}, base)
	return name + ServedExtension(served)
}
