"""The shared geometry of the map generators (each game's `tools/` builds its reconstructed
map with these): the projection of real geography onto a printed grid, the hex frame of
any grid the engine knows (flat or pointy, either shift, CCRR or letter-row labels),
plane geometry, Natural Earth GeoJSON, and the routing of rivers and roads along
hexsides. A development kit: the rules never import it, and shapely and numpy (the
`dev` extra) are imported only by the parts that need them."""
