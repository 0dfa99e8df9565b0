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
        cut: false,
        unknown: false,
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
        cut: false,
        unknown: false,
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

fn append(w: &mut Writer, r: &Record) -> (u64, usize) {
    let (line, flag) = borrowed(r).line();
    (w.append(&line).unwrap(), flag)
}

/// Where the records of a ledger end (zeros after them are a hole or an old writer's region).
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
        &mut Writer::open(&a).unwrap(),
        &rec("2026-11-23T10:00:02Z", "t2"),
    );
    let mut w = Writer::open(&b).unwrap();
    append(&mut w, &rec("2026-11-23T10:00:01Z", "t1"));
    drop(w);
    let mut w = Writer::open(&a).unwrap();
    append(&mut w, &rec("2026-11-23T10:00:03Z", "t3"));
    drop(w);
    let mode = std::fs::metadata(&a).unwrap().permissions();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
        0o600
    );
    // A kill in the middle of a write leaves a line without its end (here before the zeros an
    // earlier mcsctl mapped ahead of its records): not read...
    let f = OpenOptions::new().write(true).open(&b).unwrap();
    let torn = br#"{"time":"2026-11-23T10:00:04Z","mach"#;
    std::os::unix::fs::FileExt::write_all_at(&f, torn, data_end(&b)).unwrap();
    std::os::unix::fs::FileExt::write_all_at(&f, &[0u8; 4096], data_end(&b)).unwrap();
    assert_eq!(tokens(&[a.clone(), b.clone()]), ["t1", "t2", "t3"]);
    // ...and the next writer cuts the zeros, ends that line and starts one of its own after it.
    let mut w = Writer::open(&b).unwrap();
    append(&mut w, &rec("2026-11-23T10:00:05Z", "t5"));
    assert_eq!(tokens(&[a, b.clone()]), ["t1", "t2", "t3", "t5"]);
    drop(w);
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
    let mut w = Writer::open(&p).unwrap();
    let (first, flag) = append(&mut w, &rec("2026-11-23T10:00:01Z", "t1"));
    let (second, flag2) = append(&mut w, &rec("2026-11-23T10:00:02Z", "t2"));
    append(&mut w, &rec("2026-11-23T10:00:03Z", "t3"));
    let before = std::fs::read(&p).unwrap();
    w.mark(first + flag as u64, WHOLE).unwrap();
    w.mark(second + flag2 as u64, CUT).unwrap();
    let file = std::fs::File::open(&p).unwrap();
    assert_eq!(flag_at(&file, first + flag as u64).unwrap(), Some(true));
    assert_eq!(flag_at(&file, second + flag2 as u64).unwrap(), Some(false));
    let after = std::fs::read(&p).unwrap();
    assert_eq!(before.len(), after.len());
    let got = read(&[p]).unwrap();
    assert_eq!(
        got.iter().map(|r| (r.whole, r.cut)).collect::<Vec<_>>(),
        [(true, false), (false, true), (false, false)]
    );
    assert!(
        String::from_utf8(after.clone())
            .unwrap()
            .contains(r#""whole":"cut"}"#)
    );
    // Read as JSON elsewhere (jq, a log shipper), a cut record says so.
    let cut: Record = serde_json::from_str(
        String::from_utf8(after.clone())
            .unwrap()
            .lines()
            .nth(1)
            .unwrap(),
    )
    .unwrap();
    assert!(!cut.whole);
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
    s.scan(|l| seen.push(l.record.token)).unwrap();
    assert!(seen.is_empty(), "a missing ledger has no records");
    let mut f = std::fs::File::create(&p).unwrap();
    let (one, _) = borrowed(&rec("2026-11-23T10:00:01Z", "t1")).line();
    f.write_all(&one).unwrap();
    s.scan(|l| seen.push(l.record.token)).unwrap();
    // A line being written (no newline yet) is left for the next scan.
    let (line, _) = borrowed(&rec("2026-11-23T10:00:02Z", "t2")).line();
    f.write_all(&line[..40]).unwrap();
    s.scan(|l| seen.push(l.record.token)).unwrap();
    f.write_all(&line[40..]).unwrap();
    s.scan(|l| seen.push(l.record.token)).unwrap();
    assert_eq!(seen, ["t1", "t2"]);
    // Blank lines are not records; a writer's zeros ahead of its records are where the next
    // record will be: the follower waits there.
    f.write_all(b"\n\n").unwrap();
    f.write_all(&vec![0u8; 40 * 1024]).unwrap();
    s.scan(|l| seen.push(l.record.token)).unwrap();
    assert_eq!(seen, ["t1", "t2"]);
    let (three, _) = borrowed(&rec("2026-11-23T10:00:03Z", "t3")).line();
    std::os::unix::fs::FileExt::write_all_at(&f, &three, data_end(&p)).unwrap();
    s.scan(|l| seen.push(l.record.token)).unwrap();
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
    s.scan(|l| seen.push(l.record.token)).unwrap();
    assert!(seen.is_empty(), "waits for the gap to fill");
    std::os::unix::fs::FileExt::write_all_at(&file, &one, 0).unwrap();
    s.scan(|l| seen.push(l.record.token)).unwrap();
    assert_eq!(seen, ["t1", "t2"]);
    // A gap still there at the next scan is a place a kill left: skipped, and what follows read.
    let (three, _) = borrowed(&rec("2026-11-23T10:00:03Z", "t3")).line();
    let end = std::fs::metadata(&p).unwrap().len();
    std::os::unix::fs::FileExt::write_all_at(&file, &three, end + 50).unwrap();
    s.scan(|l| seen.push(l.record.token)).unwrap();
    assert_eq!(seen, ["t1", "t2"]);
    s.scan(|l| seen.push(l.record.token)).unwrap();
    assert_eq!(seen, ["t1", "t2", "t3"]);
    // A one-time reader reads past gaps at once, and splits a torn write from what follows.
    let torn = &one[..30];
    std::os::unix::fs::FileExt::write_all_at(&file, torn, end + 10).unwrap();
    assert_eq!(tokens(&[p]), ["t1", "t2", "t3"]);
}

#[test]
fn a_writer_finds_its_ledger_truncated_replaced_or_removed_and_a_rewrite_takes_its_place() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("ledger/a.jsonl");
    let mut w = Writer::open(&p).unwrap();
    let mode = |p: &Path| {
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(p).unwrap().permissions())
            & 0o777
    };
    assert_eq!(
        mode(p.parent().unwrap()),
        0o700,
        "a directory it creates is private"
    );
    append(&mut w, &rec("2026-11-23T10:00:01Z", "t1"));
    assert_eq!(w.health().unwrap(), Health::Intact);
    // logrotate's copytruncate: same file, cut to nothing (no SIGBUS: nothing is mapped). A
    // record written meanwhile lands past a hole of NULs, which readers skip; the check finds
    // the file short, and once records fill it again, the NULs.
    let cut = |p: &Path, to: u64| {
        std::fs::OpenOptions::new()
            .write(true)
            .open(p)
            .unwrap()
            .set_len(to)
            .unwrap()
    };
    cut(&p, 0);
    assert!(matches!(
        w.health().unwrap(),
        Health::Truncated { at: 0, .. }
    ));
    let (at, _) = append(&mut w, &rec("2026-11-23T10:00:02Z", "t2"));
    assert!(at > 0, "past the hole");
    assert!(matches!(
        w.health().unwrap(),
        Health::Truncated { at: 0, .. }
    ));
    assert_eq!(tokens(std::slice::from_ref(&p)), ["t2"]);
    // Cut within what was checked already, then filled past it: the NULs are found too.
    let q = d.path().join("ledger/b.jsonl");
    let mut w2 = Writer::open(&q).unwrap();
    for t in ["t1", "t2"] {
        append(&mut w2, &rec("2026-11-23T10:00:01Z", t));
    }
    assert_eq!(w2.health().unwrap(), Health::Intact);
    let half = std::fs::metadata(&q).unwrap().len() / 2;
    cut(&q, half);
    append(&mut w2, &rec("2026-11-23T10:00:03Z", "t3"));
    assert!(matches!(w2.health().unwrap(), Health::Truncated { at, .. } if at == half));
    // Another hand appending: the file is longer than what was written.
    let r = d.path().join("ledger/c.jsonl");
    let mut w3 = Writer::open(&r).unwrap();
    append(&mut w3, &rec("2026-11-23T10:00:01Z", "t1"));
    std::fs::OpenOptions::new()
        .append(true)
        .open(&r)
        .unwrap()
        .write_all(b"\n")
        .unwrap();
    assert!(matches!(w3.health().unwrap(), Health::Appended { .. }));
    // The repair: a new file renamed over the path, private, locked, written from then on.
    let (one, _) = borrowed(&rec("2026-11-23T10:00:01Z", "t1")).line();
    let (two, flag) = borrowed(&rec("2026-11-23T10:00:02Z", "t2")).line();
    let starts = w.rewrite(&[&one, &two]).unwrap();
    assert_eq!(starts, [0, one.len() as u64]);
    assert_eq!(w.health().unwrap(), Health::Intact);
    assert_eq!(mode(&p), 0o600);
    assert_eq!(tokens(std::slice::from_ref(&p)), ["t1", "t2"]);
    w.mark(starts[1] + flag as u64, WHOLE).unwrap();
    assert!(read(std::slice::from_ref(&p)).unwrap()[1].whole);
    let e = format!("{:#}", Writer::open(&p).unwrap_err());
    assert!(e.contains("being written by another serve process"), "{e}");
    // Renamed away (logrotate without copytruncate), or removed.
    std::fs::rename(&p, d.path().join("ledger/a.jsonl.1")).unwrap();
    std::fs::write(&p, b"").unwrap();
    assert_eq!(w.health().unwrap(), Health::Replaced);
    std::fs::remove_file(&p).unwrap();
    assert_eq!(w.health().unwrap(), Health::Removed);
}

#[test]
fn a_follower_reads_a_rewritten_ledger_again_and_marks_what_it_read_before() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("a.jsonl");
    let mut w = Writer::open(&p).unwrap();
    append(&mut w, &rec("2026-11-23T10:00:01Z", "t1"));
    append(&mut w, &rec("2026-11-23T10:00:02Z", "t2"));
    let mut s = Scanner::follow(&p);
    let mut seen = Vec::new();
    s.scan(|l| seen.push((l.record.token, l.again))).unwrap();
    let (one, _) = borrowed(&rec("2026-11-23T10:00:01Z", "t1")).line();
    let (three, _) = borrowed(&rec("2026-11-23T10:00:03Z", "t3")).line();
    w.rewrite(&[&one, &three]).unwrap();
    s.scan(|l| seen.push((l.record.token, l.again))).unwrap();
    assert_eq!(
        seen,
        [
            ("t1".to_string(), false),
            ("t2".into(), false),
            ("t1".into(), true),
            ("t3".into(), false)
        ]
    );
    // Cut and grown again past where the follower was, before it looked: read again too.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&p)
        .unwrap()
        .set_len(0)
        .unwrap();
    for (i, t) in ["t4", "t5", "t6"].iter().enumerate() {
        append(&mut w, &rec(&format!("2026-11-23T10:00:0{}Z", i + 4), t));
    }
    // A follower meets the hole where its records were: it waits a scan (a place being
    // written looks the same), then reads past it.
    seen.clear();
    s.scan(|l| seen.push((l.record.token, l.again))).unwrap();
    s.scan(|l| seen.push((l.record.token, l.again))).unwrap();
    assert_eq!(
        seen,
        [
            ("t4".to_string(), false),
            ("t5".into(), false),
            ("t6".into(), false)
        ]
    );
    // The whole flag is where flag_in says, in the text as read.
    let text = String::from_utf8(three.clone()).unwrap();
    let at = flag_in(text.trim_end()).unwrap();
    assert_eq!(&text[at..at + 5], "false");
}
