//! A window with a chess board: you play White by clicking a piece and then its target, the engine plays
//! Black. `E` lets the engine play both sides, `N` starts a new game.
//!
//! Needs Bevy's default features (this package's `window` feature) and a desktop:
//! `cargo run --manifest-path tesseract-bevy/Cargo.toml --release --features window --example window`

use bevy::prelude::*;
use tesseract_bevy::{ChessGame, GameOver, MoveRejected, PlayMove, Side, TesseractPlugin, Thinking};
use tesseract_board::{Cell, Color as Player, Position, start};
use tesseract_search::Tier;

/// A square's size, in pixels.
const SQUARE: f32 = 72.0;
/// The engine's tier.
const ENGINE: Side = Side::Engine(Tier::Club);

fn main() {
    let plugin = TesseractPlugin::new(start::chess()).with_seed(seed()).with_black(ENGINE);
    App::new()
        .add_plugins((
            DefaultPlugins.set(WindowPlugin {
                primary_window: Some(Window {
                    title: "Tesseract: chess".into(),
                    resolution: (616u32, 696u32).into(), // the board and a line of text under it
                    ..default()
                }),
                ..default()
            }),
            plugin,
        ))
        .init_resource::<Selected>()
        .init_resource::<Note>()
        .add_systems(Startup, setup)
        .add_systems(Update, (keys, click, notes, draw_pieces, draw_squares, draw_status))
        .run();
}

/// A seed from the clock, so that each run is another game.
fn seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// The square a click selected, waiting for its target.
#[derive(Resource, Default)]
struct Selected(Option<Cell>);

/// The last rejection or the game's end, shown under the board.
#[derive(Resource, Default)]
struct Note(String);

/// A square of the board, at its file and rank (from 0).
#[derive(Component)]
struct Square(u8, u8);

/// A piece's letter (redrawn when the game changes).
#[derive(Component)]
struct PieceLabel;

/// The line of text under the board.
#[derive(Component)]
struct Status;

/// The center of a square, White at the bottom.
fn center(file: u8, rank: u8) -> Vec3 {
    Vec3::new((f32::from(file) - 3.5) * SQUARE, (f32::from(rank) - 3.5) * SQUARE + 40.0, 0.0)
}

fn square_color(file: u8, rank: u8, selected: bool) -> Color {
    match (selected, (file + rank).is_multiple_of(2)) {
        (true, _) => Color::srgb(0.55, 0.75, 0.35),
        (false, true) => Color::srgb(0.55, 0.4, 0.3),
        (false, false) => Color::srgb(0.93, 0.86, 0.72),
    }
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    for file in 0..8 {
        for rank in 0..8 {
            commands.spawn((
                Sprite::from_color(square_color(file, rank, false), Vec2::splat(SQUARE)),
                Transform::from_translation(center(file, rank)),
                Square(file, rank),
            ));
        }
    }
    commands.spawn((
        Text2d::new(""),
        TextFont::from_font_size(20.0),
        Transform::from_xyz(0.0, -4.0 * SQUARE - 10.0, 1.0),
        Status,
    ));
}

fn cell_of(position: &Position, file: u8, rank: u8) -> Option<Cell> {
    position.geometry().cell(&[file + 1, rank + 1])
}

/// Redraws the pieces' letters whenever the game changes.
fn draw_pieces(mut commands: Commands, chess: Res<ChessGame>, labels: Query<Entity, With<PieceLabel>>) {
    if !chess.is_changed() {
        return;
    }
    for label in &labels {
        commands.entity(label).despawn();
    }
    let position = chess.position();
    for file in 0..8 {
        for rank in 0..8 {
            let Some(piece) = cell_of(position, file, rank).and_then(|cell| position.piece_at(cell)) else {
                continue;
            };
            let color = match piece.color {
                Player::White => Color::WHITE,
                Player::Black => Color::BLACK,
            };
            commands.spawn((
                Text2d::new(piece.role.upper_char(2).to_string()),
                TextFont::from_font_size(44.0),
                TextColor(color),
                Transform::from_translation(center(file, rank) + Vec3::Z),
                PieceLabel,
            ));
        }
    }
}

fn draw_squares(selected: Res<Selected>, chess: Res<ChessGame>, mut squares: Query<(&Square, &mut Sprite)>) {
    if !selected.is_changed() {
        return;
    }
    for (Square(file, rank), mut sprite) in &mut squares {
        let here = cell_of(chess.position(), *file, *rank);
        sprite.color = square_color(*file, *rank, here.is_some() && here == selected.0);
    }
}

fn draw_status(
    chess: Res<ChessGame>,
    thinking: Res<Thinking>,
    note: Res<Note>,
    mut status: Single<&mut Text2d, With<Status>>,
) {
    let turn = chess.position().turn();
    let line = match (chess.status(), &thinking.best) {
        (Some(end), _) => format!("{end}. N: new game"),
        (None, Some(best)) if thinking.color.is_some() => {
            format!("{turn} ({}) thinks: depth {}, score {}", chess.side(turn), best.depth, best.score)
        }
        (None, _) => format!("{turn} to move ({}). {}", chess.side(turn), note.0),
    };
    if status.0 != line {
        status.0 = line;
    }
}

/// A click selects a piece of the side to move, or sends the move from the selected square.
fn click(
    mouse: Res<ButtonInput<MouseButton>>,
    window: Single<&Window>,
    camera: Single<(&Camera, &GlobalTransform)>,
    chess: Res<ChessGame>,
    mut selected: ResMut<Selected>,
    mut moves: MessageWriter<PlayMove>,
) {
    if !mouse.just_pressed(MouseButton::Left) {
        return;
    }
    let (camera, transform) = *camera;
    let Some(point) = window.cursor_position().and_then(|p| camera.viewport_to_world_2d(transform, p).ok()) else {
        return;
    };
    let file = ((point.x / SQUARE) + 4.0).floor();
    let rank = ((point.y - 40.0) / SQUARE + 4.0).floor();
    if !(0.0..8.0).contains(&file) || !(0.0..8.0).contains(&rank) {
        selected.0 = None;
        return;
    }
    let position = chess.position();
    let Some(cell) = cell_of(position, file as u8, rank as u8) else { return };
    let own = position.piece_at(cell).is_some_and(|p| p.color == position.turn());
    match selected.0 {
        Some(from) if from != cell && !own => {
            let geometry = position.geometry();
            let mut text = format!("{}{}", geometry.cell_name(from), geometry.cell_name(cell));
            let last_rank = if position.turn() == Player::White { 8 } else { 1 };
            let pawn = position.piece_at(from).is_some_and(|p| p.role.is_pawn());
            if pawn && geometry.coord(cell, 1) == last_rank {
                text.push('q');
            }
            moves.write(PlayMove(text));
            selected.0 = None;
        }
        _ => selected.0 = own.then_some(cell),
    }
}

fn keys(keyboard: Res<ButtonInput<KeyCode>>, mut chess: ResMut<ChessGame>, mut note: ResMut<Note>) {
    if keyboard.just_pressed(KeyCode::KeyE) {
        chess.set_side(Player::White, ENGINE);
        chess.set_side(Player::Black, ENGINE);
    }
    if keyboard.just_pressed(KeyCode::KeyN) {
        chess.restart(start::chess(), seed());
        chess.set_side(Player::White, Side::Human);
        chess.set_side(Player::Black, ENGINE);
        note.0.clear();
    }
}

fn notes(mut rejected: MessageReader<MoveRejected>, mut over: MessageReader<GameOver>, mut note: ResMut<Note>) {
    for r in rejected.read() {
        note.0 = format!("{}: {}", r.text, r.reason);
    }
    for o in over.read() {
        info!("game over: {}", o.end);
    }
}
