"""archive.write_tar_gz: the block-parallel gzip stream is valid gzip and its bytes do not
depend on the number of threads; entries sit in one top folder, sorted, without owners."""

from __future__ import annotations

import gzip
import hashlib
import os
import subprocess
import tarfile

from recipes.export.archive import BLOCK, Entry, write_tar_gz


def test_same_bytes_on_one_or_many_threads_and_any_gunzip_reads_them(tmp_path):
    big = tmp_path / "model.pkl"
    big.write_bytes(os.urandom(BLOCK) + b"tree " * (BLOCK // 2) + os.urandom(123))  # several blocks, uneven end
    entries = [Entry("predictor/model.pkl", source=big), Entry("MODEL_CARD.md", data=b"# card\n"),
               Entry("empty.txt", data=b"")]
    digests = set()
    for threads in (1, 2, 5):
        out = tmp_path / f"t{threads}.tar.gz"
        write_tar_gz(out, "penguins-0123456789ab", entries, threads=threads)
        digests.add(hashlib.sha256(out.read_bytes()).hexdigest())
    assert len(digests) == 1
    archive = tmp_path / "t2.tar.gz"
    assert subprocess.run(["gzip", "-t", str(archive)]).returncode == 0
    with gzip.open(archive) as raw:
        assert len(raw.read()) % 512 == 0
    with tarfile.open(archive) as tar:
        names = tar.getnames()
        assert tar.extractfile("penguins-0123456789ab/predictor/model.pkl").read() == big.read_bytes()
        assert all(m.uid == 0 and m.uname == "" and m.mtime == 0 for m in tar.getmembers())
    assert names == ["penguins-0123456789ab", "penguins-0123456789ab/MODEL_CARD.md",
                     "penguins-0123456789ab/empty.txt", "penguins-0123456789ab/predictor",
                     "penguins-0123456789ab/predictor/model.pkl"]
