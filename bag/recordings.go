package bag

import (
	"context"
	"os"
)

// A Recording is one recording among the paths given to InspectAll, with
// its report and its error as Inspect returns them.
type Recording struct {
	// Name is the recording's: its bag directory's, or NAME of its files
	// NAME_0, NAME_1, ...
	Name   string
	Files  []string
	Report *Report
	Err    error
}

// InspectAll is Inspect for paths that may hold several recordings: a
// folder of bags without metadata.yaml, or the files of several
// recordings given together. The storage files are grouped by recording
// as rosbag2's writer names them (NAME_0, NAME_1, ... belong to NAME; a
// file not so named is a recording of its own), and each recording is
// inspected on its own: two unrelated bags are never read as one, whose
// /clock would jump between them. A recording whose files are of two
// storages, and inputs that are not bags, give an error wrapping ErrUsage
// or ErrInput and no recording.
func InspectAll(ctx context.Context, paths []string, opts Options) ([]Recording, error) {
	sets, err := resolveAll(paths)
	if err != nil {
		return nil, err
	}
	out := make([]Recording, 0, len(sets))
	for _, set := range sets {
		var total int64
		rec := Recording{Name: set.name}
		for _, f := range set.files {
			rec.Files = append(rec.Files, f.path)
			if st, err := os.Stat(f.path); err == nil {
				total += st.Size()
			}
		}
		rec.Report, rec.Err = inspect(ctx, set, total, opts, readBagFile)
		out = append(out, rec)
		if ctx.Err() != nil {
			break
		}
	}
	return out, nil
}
