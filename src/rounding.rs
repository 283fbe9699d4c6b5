//! JSON numbers rounded to what they mean, for `serialize_with`: an SE
//! rating to a tenth (`4.7`, not the `4.7000003` its sum of steps makes
//! in `f32`), a time in milliseconds to a microsecond (`0.187`, not
//! `0.18744899999999998`).

use serde::Serializer;

/// `x` rounded to `places` decimals, as the nearest `f64` (non-finite
/// values as they are).
fn round(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    let r = (x * scale).round() / scale;
    if r.is_finite() {
        r
    } else {
        x
    }
}

/// A rating, to one decimal.
pub(crate) fn rating<S: Serializer>(v: &f32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(round(f64::from(*v), 1))
}

/// An optional rating, to one decimal.
pub(crate) fn opt_rating<S: Serializer>(v: &Option<f32>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => rating(v, s),
        None => s.serialize_none(),
    }
}

/// Milliseconds, to three decimals.
pub(crate) fn millis<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(round(*v, 3))
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize)]
    struct R {
        #[serde(serialize_with = "super::opt_rating")]
        rating: Option<f32>,
        #[serde(serialize_with = "super::rating")]
        se: f32,
        #[serde(serialize_with = "super::millis")]
        elapsed_ms: f64,
    }

    #[test]
    fn numbers_are_rounded_to_what_they_mean() {
        let r = R {
            rating: Some(4.4 + 0.3),
            se: 7.0 + 0.1 + 0.1 + 0.1,
            elapsed_ms: 0.18744899999999998,
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"rating":4.7,"se":7.3,"elapsed_ms":0.187}"#
        );
        let none = R {
            rating: None,
            se: 1.2,
            elapsed_ms: 12.0,
        };
        assert_eq!(
            serde_json::to_string(&none).unwrap(),
            r#"{"rating":null,"se":1.2,"elapsed_ms":12.0}"#
        );
    }
}
