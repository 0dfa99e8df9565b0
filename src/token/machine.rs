//! Machine tokens (`machine add`): each bound to one machine's node name and scoped to its
//! pool, with a number of full-config fetches; never current, so no pool's pointer config
//! carries one.

use anyhow::Result;
use time::OffsetDateTime;

use super::{State, Token, TokenStore};

impl TokenStore {
    /// Adds a token bound to the machine `name`, scoped to `pool`, allowing `uses` full-config
    /// fetches (`None`: any number). It is never current: no pool's pointer config carries it.
    pub fn create_machine(
        &mut self,
        now: OffsetDateTime,
        ttl: Option<time::Duration>,
        name: &str,
        pool: &str,
        uses: Option<u32>,
    ) -> Result<String> {
        let mut ids = self.ids();
        self.create_machine_among(&mut ids, now, ttl, name, pool, uses)
    }

    /// Every token's id, for [`TokenStore::create_machine_among`].
    pub fn ids(&self) -> std::collections::HashSet<String> {
        self.tokens.iter().map(|t| t.id.clone()).collect()
    }

    /// [`TokenStore::create_machine`] for one machine of many: `ids` holds every token's id
    /// (see [`TokenStore::ids`]) and gains the new one, so thousands are made in linear time.
    pub fn create_machine_among(
        &mut self,
        ids: &mut std::collections::HashSet<String>,
        now: OffsetDateTime,
        ttl: Option<time::Duration>,
        name: &str,
        pool: &str,
        uses: Option<u32>,
    ) -> Result<String> {
        let mut token = self.generate_unlike(
            now,
            ttl,
            Some(format!("machine {name}")),
            State::Active,
            vec![pool.to_string()],
            &|id| ids.contains(id),
        )?;
        token.machine = Some(name.to_string());
        token.uses = uses;
        let id = token.id.clone();
        ids.insert(id.clone());
        self.tokens.push(token);
        Ok(id)
    }

    /// The live token bound to the machine `name`, if any.
    pub fn machine_token(&self, name: &str) -> Option<&Token> {
        self.tokens
            .iter()
            .find(|t| t.machine.as_deref() == Some(name) && t.state != State::Revoked)
    }
}
