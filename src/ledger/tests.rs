use std::fs::OpenOptions;
use std::io::Write;

use super::*;

fn rec(time: &str, token: &str) -> Record {
    Record {
        time: time.into(),
        machine: "w1".into(),
        token: token.into(),
        pool: "worker".into(),
        client: "10.0.0.5:40000".into(),
        via: None,
        spec: "3.2.0".into(),
        bytes: 100,
        replica: "a".into(),
        whole: false,
    }
}

fn borrowed(r: &Record) -> Record<&str> {
    Record {
        time: &r.time,
        machine: &r.machine,
        token: &r.token,
        pool: &r.pool,
        client: &r.client,
        via: r.via.as_deref(),
        spec: &r.spec,
        bytes: r.bytes,
        replica: &r.replica,
        whole: false,
    }
}

#[test]
fn a_record_line_is_what_serde_json_writes() {
    let mut r = rec("2026-11-23T10:00:01.5Z", "t\"1\\");
    r.machine = "w1\n\u{1}é".into();
    for via in [None, Some("10.0.0.1:5000".to_string())] {
        r.via = via;
        let (line, flag) = borrowed(&r).line();
        let want = format!("{}\n", serde_json::to_string(&r).unwrap());
        assert_eq!(String::from_utf8(line.clone()).unwrap(), want);
        assert_eq!(&line[flag..flag + 5], b"false");
    }
}

fn append(w: &Writer, r: &Record) -> (u64, usize) {
    let (line, flag) = borrowed(r).line();
    (w.append(&line).unwrap(), flag)
}

/// Where the records of a ledger end (a writer maps zeros ahead of them).
fn data_end(p: &Path) -> u64 {
    let bytes = std::fs::read(p).unwrap();
    bytes
        .iter()
        .rposition(|&b| b != 0)
        .map_or(0, |i| i as u64 + 1)
}

fn tokens(files: &[PathBuf]) -> Vec<String> {
    read(files).unwrap().into_iter().map(|r| r.token).collect()
}

#[test]
fn records_survive_a_reopen_merge_in_time_order_and_a_torn_line_is_skipped() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("a.jsonl"), d.path().join("b.jsonl"));
    append(
        &Writer::open(&a).unwrap(),
        &rec("2026-11-23T10:00:02Z", "t2"),
    );
    let w = Writer::open(&b).unwrap();
    append(&w, &rec("2026-11-23T10:00:01Z", "t1"));
    drop(w);
    let w = Writer::open(&a).unwrap();
    append(&w, &rec("2026-11-23T10:00:03Z", "t3"));
    drop(w);
    let mode = std::fs::metadata(&a).unwrap().permissions();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
        0o600
    );
    // A kill in the middle of a copy leaves a line without its end, before the region's zeros:
    // not read...
    let f = OpenOptions::new().write(true).open(&b).unwrap();
    let torn = br#"{"time":"2026-11-23T10:00:04Z","mach"#;
    std::os::unix::fs::FileExt::write_all_at(&f, torn, data_end(&b)).unwrap();
    assert_eq!(tokens(&[a.clone(), b.clone()]), ["t1", "t2", "t3"]);
    // ...and the next writer cuts the zeros, ends that line and starts one of its own after it.
    let w = Writer::open(&b).unwrap();
    append(&w, &rec("2026-11-23T10:00:05Z", "t5"));
    assert_eq!(tokens(&[a, b.clone()]), ["t1", "t2", "t3", "t5"]);
    // Closed, the ledger ends with its last record.
    w.close().unwrap();
    assert!(std::fs::read(&b).unwrap().ends_with(b"}\n"));
    let mut f = OpenOptions::new().append(true).open(&b).unwrap();
    // Damage anywhere else is an error naming the line.
    f.write_all(b"{}\n").unwrap();
    let e = read(&[b]).unwrap_err().to_string();
    assert!(e.contains("b.jsonl line 4: not a ledger record"), "{e}");
}

#[test]
fn the_whole_flag_is_rewritten_in_place_and_the_line_stays_a_record() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("a.jsonl");
    let w = Writer::open(&p).unwrap();
    let (first, flag) = append(&w, &rec("2026-11-23T10:00:01Z", "t1"));
    append(&w, &rec("2026-11-23T10:00:02Z", "t2"));
    let before = std::fs::read(&p).unwrap();
    w.confirm(vec![first + flag as u64]).unwrap();
    let after = std::fs::read(&p).unwrap();
    assert_eq!(before.len(), after.len());
    let got = read(&[p]).unwrap();
    assert_eq!(
        got.iter().map(|r| r.whole).collect::<Vec<_>>(),
        [true, false]
    );
    assert!(
        String::from_utf8(after)
            .unwrap()
            .contains(r#""whole":true }"#)
    );
}

#[test]
fn a_second_writer_of_one_ledger_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("a.jsonl");
    let _w = Writer::open(&p).unwrap();
    let e = format!("{:#}", Writer::open(&p).unwrap_err());
    assert!(
        e.contains("is being written by another serve process (give each its own --ledger)"),
        "{e}"
    );
}

#[test]
fn a_scanner_reads_only_what_was_appended_since_and_waits_for_a_line_in_progress() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("a.jsonl");
    let mut s = Scanner::follow(&p);
    let mut seen = Vec::new();
    s.scan(|r, _| seen.push(r.token)).unwrap();
    assert!(seen.is_empty(), "a missing ledger has no records");
    let mut f = std::fs::File::create(&p).unwrap();
    let (one, _) = borrowed(&rec("2026-11-23T10:00:01Z", "t1")).line();
    f.write_all(&one).unwrap();
    s.scan(|r, _| seen.push(r.token)).unwrap();
    // A line being written (no newline yet) is left for the next scan.
    let (line, _) = borrowed(&rec("2026-11-23T10:00:02Z", "t2")).line();
    f.write_all(&line[..40]).unwrap();
    s.scan(|r, _| seen.push(r.token)).unwrap();
    f.write_all(&line[40..]).unwrap();
    s.scan(|r, _| seen.push(r.token)).unwrap();
    assert_eq!(seen, ["t1", "t2"]);
    // Blank lines are not records; a writer's zeros ahead of its records are where the next
    // record will be: the follower waits there.
    f.write_all(b"\n\n").unwrap();
    f.write_all(&vec![0u8; 40 * 1024]).unwrap();
    s.scan(|r, _| seen.push(r.token)).unwrap();
    assert_eq!(seen, ["t1", "t2"]);
    let (three, _) = borrowed(&rec("2026-11-23T10:00:03Z", "t3")).line();
    std::os::unix::fs::FileExt::write_all_at(&f, &three, data_end(&p)).unwrap();
    s.scan(|r, _| seen.push(r.token)).unwrap();
    assert_eq!(seen, ["t1", "t2", "t3"]);
    // A line too long to be a record is an error, not a read of unbounded size.
    let mut g = std::fs::File::create(d.path().join("b.jsonl")).unwrap();
    g.write_all(&one).unwrap();
    g.write_all(&vec![b'x'; 20 * 1024]).unwrap();
    let e = read(&[d.path().join("b.jsonl")]).unwrap_err().to_string();
    assert!(e.contains("line 2: longer than 16 KiB"), "{e}");
}

#[test]
fn a_follower_waits_a_scan_for_a_gap_before_a_later_record_and_then_reads_past_it() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("a.jsonl");
    let (one, _) = borrowed(&rec("2026-11-23T10:00:01Z", "t1")).line();
    let (two, _) = borrowed(&rec("2026-11-23T10:00:02Z", "t2")).line();
    // The second record landed before the first one's place was written.
    let file = std::fs::File::create(&p).unwrap();
    std::os::unix::fs::FileExt::write_all_at(&file, &two, one.len() as u64).unwrap();
    let mut s = Scanner::follow(&p);
    let mut seen = Vec::new();
    s.scan(|r, _| seen.push(r.token)).unwrap();
    assert!(seen.is_empty(), "waits for the gap to fill");
    std::os::unix::fs::FileExt::write_all_at(&file, &one, 0).unwrap();
    s.scan(|r, _| seen.push(r.token)).unwrap();
    assert_eq!(seen, ["t1", "t2"]);
    // A gap still there at the next scan is a place a kill left: skipped, and what follows read.
    let (three, _) = borrowed(&rec("2026-11-23T10:00:03Z", "t3")).line();
    let end = std::fs::metadata(&p).unwrap().len();
    std::os::unix::fs::FileExt::write_all_at(&file, &three, end + 50).unwrap();
    s.scan(|r, _| seen.push(r.token)).unwrap();
    assert_eq!(seen, ["t1", "t2"]);
    s.scan(|r, _| seen.push(r.token)).unwrap();
    assert_eq!(seen, ["t1", "t2", "t3"]);
    // A one-time reader reads past gaps at once, and splits a torn write from what follows.
    let torn = &one[..30];
    std::os::unix::fs::FileExt::write_all_at(&file, torn, end + 10).unwrap();
    assert_eq!(tokens(&[p]), ["t1", "t2", "t3"]);
}

#[test]
fn confirmations_over_many_stretches_flip_exactly_their_records() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("a.jsonl");
    let w = Writer::open(&p).unwrap();
    // About 300 KB of records: the confirmations span several 64 KiB stretches.
    let flags: Vec<u64> = (0..1000)
        .map(|i| {
            let (at, flag) = append(&w, &rec("2026-11-23T10:00:01Z", &format!("t{i}")));
            at + flag as u64
        })
        .collect();
    let every_other: Vec<u64> = flags.iter().copied().step_by(2).rev().collect();
    w.confirm(every_other).unwrap();
    let got: Vec<bool> = read(&[p]).unwrap().iter().map(|r| r.whole).collect();
    assert_eq!(got.len(), 1000);
    assert!(got.iter().enumerate().all(|(i, &w)| w == (i % 2 == 0)));
}
