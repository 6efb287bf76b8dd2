//! Colour models of the four pieces in a lamp-normalised colour space, shipped
//! as defaults (`models/colours.json`) and adapted to each session's pieces.
//!
//! A colour is reduced to three features that survive uneven lamp light:
//! luma relative to the empty board under it, and two chroma ratios
//! (redness, blueness) that do not change with brightness.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::geometry::Piece;

/// The models shipped with the program.
const DEFAULT_MODELS_JSON: &str = include_str!("../../models/colours.json");

/// The `format` field of a colour-model file.
pub const COLOUR_MODEL_FORMAT: &str = "carrom-colours";

/// Luma below which chroma ratios are noise, 0–255 scale.
const MIN_LUMA: f64 = 8.0;

/// Why a colour-model file was refused.
#[derive(Debug, Error)]
pub enum ColourModelError {
    /// Not JSON of the expected shape.
    #[error("colour models: {0}")]
    Json(#[from] serde_json::Error),
    /// The `format` field names another kind of file.
    #[error("colour models: format is {0:?}, expected {COLOUR_MODEL_FORMAT:?}")]
    Format(String),
    /// A piece has no model, or a spread is not positive.
    #[error("colour models: {0}")]
    Invalid(String),
}

/// A colour reduced to the features the models compare.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ColourSample {
    /// Features: relative luma, redness, blueness.
    pub features: [f64; 3],
}

impl ColourSample {
    /// The features of a mean BGR colour seen over an empty-board luma of
    /// `board_luma` (both 0–255).
    pub fn from_bgr(bgr: [f64; 3], board_luma: f64) -> ColourSample {
        let [b, g, r] = bgr;
        let luma = (b + g + r) / 3.0;
        let chroma_scale = luma.max(MIN_LUMA);
        ColourSample {
            features: [
                luma / board_luma.max(MIN_LUMA),
                (r - (g + b) / 2.0) / chroma_scale,
                (b - g) / chroma_scale,
            ],
        }
    }
}

/// One piece's model: the mean features and their spread.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ClassModel {
    /// The piece this model describes.
    pub piece: Piece,
    /// Mean features.
    pub mean: [f64; 3],
    /// Typical deviation of each feature (> 0).
    pub spread: [f64; 3],
}

impl ClassModel {
    /// Squared distance of a sample in units of the spread.
    pub fn distance(&self, sample: &ColourSample) -> f64 {
        (0..3)
            .map(|i| ((sample.features[i] - self.mean[i]) / self.spread[i]).powi(2))
            .sum()
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct ModelFile {
    format: String,
    version: u32,
    #[serde(default)]
    features: Vec<String>,
    classes: Vec<ClassModel>,
}

/// The colour models of all four pieces.
#[derive(Debug, Clone, PartialEq)]
pub struct ColourModels {
    classes: [ClassModel; 4],
}

impl ColourModels {
    /// The models shipped in `models/colours.json`.
    pub fn shipped() -> Result<ColourModels, ColourModelError> {
        DEFAULT_MODELS_JSON.parse()
    }

    /// The model of `piece`.
    pub fn model(&self, piece: Piece) -> &ClassModel {
        &self.classes[Self::slot(piece)]
    }

    /// Where `piece`'s model stands among the four (white, black, Queen,
    /// striker), as in [`ColourModels::distances`].
    pub(crate) fn slot(piece: Piece) -> usize {
        match piece {
            Piece::White => 0,
            Piece::Black => 1,
            Piece::Queen => 2,
            Piece::Striker => 3,
        }
    }

    /// The most likely of `candidates` for a sample, with a confidence in
    /// 0..=1 (how much nearer the best is than the runner-up).
    pub fn classify(&self, sample: &ColourSample, candidates: &[Piece]) -> Option<(Piece, f64)> {
        let mut scored: Vec<(Piece, f64)> = candidates
            .iter()
            .map(|&piece| (piece, self.model(piece).distance(sample)))
            .collect();
        scored.sort_by(|a, b| a.1.total_cmp(&b.1));
        let (best, best_distance) = *scored.first()?;
        let confidence = match scored.get(1) {
            Some(&(_, runner_up)) if runner_up > 0.0 => 1.0 - best_distance / runner_up,
            _ => 1.0,
        };
        Some((best, confidence.clamp(0.0, 1.0)))
    }

    /// The sample's squared distances from the models of white, black,
    /// the Queen and the striker, in that order.
    pub fn distances(&self, sample: &ColourSample) -> [f64; 4] {
        self.classes.map(|model| model.distance(sample))
    }

    /// Sets `piece`'s mean features, its spread kept.
    pub fn set_mean(&mut self, piece: Piece, mean: [f64; 3]) {
        self.classes[Self::slot(piece)].mean = mean;
    }

    /// Moves `piece`'s mean a fraction `rate` (0..=1) towards a sample seen
    /// on a piece whose identity is known, so the models follow this board's
    /// pieces and lamp.
    pub fn adapt(&mut self, piece: Piece, sample: &ColourSample, rate: f64) {
        let rate = rate.clamp(0.0, 1.0);
        let model = &mut self.classes[Self::slot(piece)];
        for i in 0..3 {
            model.mean[i] += rate * (sample.features[i] - model.mean[i]);
        }
    }
}

impl std::str::FromStr for ColourModels {
    type Err = ColourModelError;

    fn from_str(text: &str) -> Result<ColourModels, ColourModelError> {
        let file: ModelFile = serde_json::from_str(text)?;
        if file.format != COLOUR_MODEL_FORMAT {
            return Err(ColourModelError::Format(file.format));
        }
        let mut classes: [Option<ClassModel>; 4] = [None; 4];
        for class in file.classes {
            if class.spread.iter().any(|s| !(s.is_finite() && *s > 0.0)) {
                return Err(ColourModelError::Invalid(format!(
                    "the spread of {} must be positive",
                    class.piece
                )));
            }
            classes[Self::slot(class.piece)] = Some(class);
        }
        let mut complete = Vec::with_capacity(4);
        for (slot, class) in classes.into_iter().enumerate() {
            let piece = [Piece::White, Piece::Black, Piece::Queen, Piece::Striker][slot];
            complete.push(
                class.ok_or_else(|| {
                    ColourModelError::Invalid(format!("no model for the {piece}"))
                })?,
            );
        }
        let classes: [ClassModel; 4] = complete
            .try_into()
            .map_err(|_| ColourModelError::Invalid("expected four models".into()))?;
        Ok(ColourModels { classes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::template::colours;

    fn bgr(colour: colours::Bgr) -> [f64; 3] {
        colour.map(f64::from)
    }

    fn board_luma() -> f64 {
        bgr(colours::SURFACE).iter().sum::<f64>() / 3.0
    }

    #[test]
    fn shipped_models_tell_the_template_pieces_apart() {
        let models = ColourModels::shipped().unwrap();
        let carrommen = [Piece::White, Piece::Black, Piece::Queen];
        for (colour, piece) in [
            (colours::WHITE_PIECE, Piece::White),
            (colours::BLACK_PIECE, Piece::Black),
            (colours::QUEEN, Piece::Queen),
        ] {
            let sample = ColourSample::from_bgr(bgr(colour), board_luma());
            let (got, confidence) = models.classify(&sample, &carrommen).unwrap();
            assert_eq!(got, piece);
            assert!(confidence > 0.5, "{piece}: {confidence}");
        }
    }

    #[test]
    fn features_do_not_change_with_lamp_brightness() {
        let base = ColourSample::from_bgr([40.0, 40.0, 200.0], 190.0);
        let dimmer = ColourSample::from_bgr([20.0, 20.0, 100.0], 95.0);
        for i in 0..3 {
            assert!((base.features[i] - dimmer.features[i]).abs() < 1e-9);
        }
    }

    #[test]
    fn adapting_moves_a_model_towards_the_sample() {
        let mut models = ColourModels::shipped().unwrap();
        let sample = ColourSample::from_bgr([120.0, 170.0, 190.0], 190.0);
        let before = models.model(Piece::White).distance(&sample);
        models.adapt(Piece::White, &sample, 0.5);
        assert!(models.model(Piece::White).distance(&sample) < before);
    }

    #[test]
    fn a_model_file_without_the_queen_is_refused() {
        let text = r#"{"format":"carrom-colours","version":1,"classes":[
            {"piece":"white","mean":[1,0,0],"spread":[1,1,1]}]}"#;
        let error = text.parse::<ColourModels>().err().map(|e| e.to_string());
        assert!(error.unwrap_or_default().contains("no model"));
    }
}
