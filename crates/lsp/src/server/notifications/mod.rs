//! One handler per notification, each in its own module. A handler records
//! what the client said (texts, versions, settings) and schedules the work
//! that follows (`Shared::update`, `Shared::solve_and_publish`).

mod did_change;
mod did_change_configuration;
mod did_change_watched_files;
mod did_close;
mod did_open;
mod initialized;

pub(super) use did_change::did_change;
pub(super) use did_change_configuration::did_change_configuration;
pub(super) use did_change_watched_files::did_change_watched_files;
pub(super) use did_close::did_close;
pub(super) use did_open::did_open;
pub(super) use initialized::initialized;
