//! Tests of the evaluation.

use super::*;

fn small() -> EvalOptions {
    EvalOptions {
        maps: 6,
        queries_per_map: 12,
        seed: 77,
        ..EvalOptions::default()
    }
}

#[test]
fn counts_add_up_and_nothing_beats_the_oracle() {
    let o = small();
    let mut reports = Vec::new();
    let s = evaluate(&o, |r| reports.push(r.clone())).unwrap();
    assert_eq!(s.maps(), 6);
    assert_eq!(s.drawn(), 6 * 12);
    assert_eq!(s.drawn(), s.compared() + s.same_polygon() + s.unreachable());
    assert!(s.compared() > 0);
    assert_eq!(s.violations(), 0, "{}", s.table());
    // The exact search (last row) reaches the optimum on every compared query.
    let exact = s.rows().last().unwrap();
    assert_eq!(
        (exact.shortest, exact.measured, exact.failed),
        (s.compared(), s.compared(), 0)
    );
    for r in s.rows() {
        assert_eq!(r.measured + r.failed + r.below_optimum, s.compared());
        assert!(r.shortest <= r.measured);
        assert!(r.over_50 <= r.over_10 && r.over_10 <= r.measured - r.shortest);
        assert!(r.excess_sum >= 0.0);
    }
    // Every compared query, checked one by one.
    for rep in &reports {
        assert_eq!(rep.queries.len(), 12);
        for q in &rep.queries {
            if let QueryOutcome::Compared { optimum, runs, .. } = &q.outcome {
                assert!(optimum.length >= q.start.distance(q.goal) * (1.0 - 1e-12));
                assert_eq!(runs.len(), 4);
                for run in runs {
                    let p = run.result.as_ref().unwrap();
                    let e = run.excess.unwrap();
                    assert!(e >= -1e-9, "negative excess {e} on map {}", rep.map);
                    assert_eq!(p.points.first(), Some(&q.start));
                    assert_eq!(p.points.last(), Some(&q.goal));
                }
            }
        }
    }
    // The toward-goal point is the better estimate, here as in the chapter.
    let (mid, tg) = (&s.rows()[0], &s.rows()[1]);
    assert!(tg.excess_sum <= mid.excess_sum);
}

#[test]
fn same_seed_same_table_and_csv() {
    let run = |o: &EvalOptions| {
        let mut csv = Vec::new();
        write_csv_header(&mut csv, &o.strategies).unwrap();
        let s = evaluate(o, |r| write_csv_rows(&mut csv, r, &o.strategies).unwrap()).unwrap();
        (s.table(), String::from_utf8(csv).unwrap())
    };
    let o = small();
    let (t1, c1) = run(&o);
    let (t2, c2) = run(&o);
    assert_eq!(t1, t2);
    assert_eq!(c1, c2);
    assert_eq!(c1.lines().count(), 1 + 6 * 12);
    let other = EvalOptions {
        seed: 78,
        ..small()
    };
    assert_ne!(run(&other).1, c1);
    // Maps are independent: map 3 alone is map 3 of the sequence.
    let alone = evaluate_map(&o, 3).unwrap();
    let mut one = Vec::new();
    write_csv_rows(&mut one, &alone, &o.strategies).unwrap();
    let one = String::from_utf8(one).unwrap();
    assert!(c1.contains(&one));
}

#[test]
fn worst_cases_are_the_largest_excess() {
    let o = small();
    let mut reports = Vec::new();
    let s = evaluate(&o, |r| reports.push(r.clone())).unwrap();
    for (k, r) in s.rows().iter().enumerate() {
        let w = r.worst.as_ref().unwrap();
        // Every measured excess of this strategy, in map and query order.
        let excesses: Vec<(usize, usize, f64)> = reports
            .iter()
            .flat_map(|m| m.queries.iter().map(move |q| (m.map, q)))
            .filter_map(|(map, q)| match &q.outcome {
                QueryOutcome::Compared { runs, .. } => runs[k].excess.map(|e| (map, q.query, e)),
                _ => None,
            })
            .filter(|&(_, _, e)| e >= -o.relative_tolerance)
            .collect();
        assert_eq!(excesses.len(), r.measured);
        let max = excesses
            .iter()
            .map(|e| e.2)
            .fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(w.excess, max, "{:?}", r.strategy);
        let first = excesses.iter().find(|e| e.2 == max).unwrap();
        assert_eq!(
            (w.map, w.query),
            (first.0, first.1),
            "the first of equal excesses"
        );
        assert!(w.excess >= 0.0);
        assert!((w.path.length / w.optimum.length - 1.0 - w.excess).abs() < 1e-12);
        // Redrawing the worst map from its index gives the same scene.
        let again = evaluate_map(&o, w.map).unwrap();
        assert_eq!(again.scene, w.scene);
        if r.over_10 > 0 {
            assert!(w.excess > 0.10);
        }
    }
}

#[test]
fn bad_options_are_refused() {
    let o = EvalOptions {
        relative_tolerance: -1.0,
        ..small()
    };
    assert_eq!(
        evaluate(&o, |_| {}).unwrap_err(),
        EvalError::BadTolerance(-1.0)
    );
    let o = EvalOptions {
        strategies: vec![],
        ..small()
    };
    assert_eq!(evaluate(&o, |_| {}).unwrap_err(), EvalError::NoStrategy);
    let mut o = small();
    o.scene.min_gap = 0.0;
    assert!(matches!(
        evaluate(&o, |_| {}).unwrap_err(),
        EvalError::Scene(_)
    ));
}

#[test]
fn a_full_map_is_reported() {
    let mut o = small();
    // One square obstacle leaving a frame of 0.13 units (0.1% of the map) free: the single
    // draw allowed (seeded, so always the same) misses it.
    o.scene.obstacles = (1, 1);
    o.scene.size = (791.5, 791.5);
    o.scene.aspect = (1.0, 1.0);
    o.scene.rectangle_fraction = 1.0;
    o.scene.rotation = (0.0, 0.0);
    o.scene.bounds = crate::geom::Aabb::new(Vec2::ZERO, Vec2::new(560.0, 560.0));
    o.scene.border_gap = 0.0;
    o.point_attempts = 1;
    match evaluate(&o, |_| {}) {
        Err(EvalError::NoFreePoint {
            map: 0,
            attempts: 1,
        }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn more_rows_fit_the_table() {
    let mut o = small();
    o.maps = 2;
    o.strategies.push(Strategy::new(
        "toward-goal-again",
        "toward-goal (again)",
        SearchOptions::default(),
    ));
    let s = evaluate(&o, |_| {}).unwrap();
    assert_eq!(
        s.table()
            .lines()
            .filter(|l| l.starts_with("| toward"))
            .count(),
        2
    );
    assert_eq!(s.rows()[1].excess_sum, s.rows()[4].excess_sum);
    let mut csv = Vec::new();
    write_csv_header(&mut csv, &o.strategies).unwrap();
    assert!(String::from_utf8(csv)
        .unwrap()
        .contains("toward-goal-again_excess"));
}
