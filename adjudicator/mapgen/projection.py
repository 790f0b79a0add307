"""Projections of longitude and latitude onto a game map's frame.

`LambertConic` is the Lambert conformal conic on a sphere, the projection of the
reconstructed maps (a good one for the mid-latitude east-west strips of the Eastern
Front); `EquidistantConic` the one of Barbarossa Solitaire's area map, which
`Window` scales into a pixel frame. `Anchored` lays a projection under a printed grid
by one city whose hex the rulebook gives and a scale in km per hex; `Fitted` by a
least-squares similarity (rotation, one scale, offset, and the mirror between north-up
and rows-down) through several such cities.

>>> lcc = LambertConic(lon0=33.5, lat0=55.5, par1=52.0, par2=58.0)
>>> x, y = lcc.forward(37.6176, 55.7520)
>>> round(x, 3), round(y, 3)
(257.189, 35.56)
>>> [round(v, 6) for v in lcc.inverse(x, y)]
[37.6176, 55.752]
"""

from __future__ import annotations

import cmath
import math
from collections.abc import Mapping
from dataclasses import dataclass

Point = tuple[float, float]
EARTH_KM = 6371.0


@dataclass(frozen=True)
class LambertConic:
    """Lambert conformal conic on a sphere: km east and north of (lon0, lat0)."""

    lon0: float
    lat0: float
    par1: float
    par2: float
    earth_km: float = EARTH_KM

    @property
    def _constants(self) -> tuple[float, float, float]:
        p1, p2, po = (math.radians(v) for v in (self.par1, self.par2, self.lat0))
        n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
            math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2))
        f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
        rho0 = self.earth_km * f / math.tan(math.pi / 4 + po / 2) ** n
        return n, f, rho0

    def forward(self, lon: float, lat: float) -> Point:
        n, f, rho0 = self._constants
        rho = self.earth_km * f / math.tan(math.pi / 4 + math.radians(lat) / 2) ** n
        theta = n * math.radians(lon - self.lon0)
        return rho * math.sin(theta), rho0 - rho * math.cos(theta)

    def inverse(self, x: float, y: float) -> Point:
        n, f, rho0 = self._constants
        rho = math.copysign(math.hypot(x, rho0 - y), n)
        theta = math.atan2(x, rho0 - y)
        lat = 2 * math.atan((self.earth_km * f / rho) ** (1 / n)) - math.pi / 2
        return self.lon0 + math.degrees(theta / n), math.degrees(lat)

    def describe(self) -> str:
        return (f"Lambert conformal conic (standard parallels {self.par1:g}N {self.par2:g}N, "
                f"central meridian {self.lon0:g}E, origin {self.lat0:g}N, sphere "
                f"R={self.earth_km:g} km)")


@dataclass(frozen=True)
class EquidistantConic:
    """Equidistant conic on a sphere, in degrees of arc: x east, y north, measured from
    the apex of the cone (so y is negative over the map's whole extent).

    >>> ec = EquidistantConic(lon0=37.0, par1=45.0, par2=62.0)
    >>> [round(v, 4) for v in ec.forward(37.0, 55.0)]
    [0.0, -40.5852]
    """

    lon0: float
    par1: float
    par2: float

    @property
    def _constants(self) -> tuple[float, float]:
        p1, p2 = math.radians(self.par1), math.radians(self.par2)
        n = (math.cos(p1) - math.cos(p2)) / (p2 - p1)
        return n, math.cos(p1) / n + p1

    def forward(self, lon: float, lat: float) -> Point:
        n, g = self._constants
        rho = g - math.radians(lat)
        theta = n * math.radians(lon - self.lon0)
        return math.degrees(rho * math.sin(theta)), -math.degrees(rho * math.cos(theta))

    def describe(self) -> str:
        return (f"equidistant conic, standard parallels {self.par1:g}N and {self.par2:g}N, "
                f"central meridian {self.lon0:g}E")


@dataclass(frozen=True)
class Window:
    """A north-up window of a projection scaled into a pixel frame (x right, y down):
    `west` and `north` are the window's edges in projected units, `scale` the pixels
    per unit."""

    projection: EquidistantConic
    west: float
    north: float
    scale: float

    def to_frame(self, lon: float, lat: float) -> Point:
        x, y = self.projection.forward(lon, lat)
        return (x - self.west) * self.scale, (self.north - y) * self.scale


@dataclass(frozen=True)
class Anchored:
    """The frame (x right, y down, one hex = 1 across its flats) with north up: one
    anchor city's lon/lat at one frame point, `km_per_hex` from hex centre to centre."""

    projection: LambertConic
    anchor_lonlat: Point
    anchor_frame: Point
    km_per_hex: float

    def to_frame(self, lon: float, lat: float) -> Point:
        mx, my = self.projection.forward(*self.anchor_lonlat)
        x, y = self.projection.forward(lon, lat)
        cx, cy = self.anchor_frame
        return cx + (x - mx) / self.km_per_hex, cy - (y - my) / self.km_per_hex

    def to_lonlat(self, fx: float, fy: float) -> Point:
        mx, my = self.projection.forward(*self.anchor_lonlat)
        cx, cy = self.anchor_frame
        return self.projection.inverse(mx + (fx - cx) * self.km_per_hex,
                                       my - (fy - cy) * self.km_per_hex)


@dataclass(frozen=True)
class Fitted:
    """frame = a * conj(x + iy) + b: a rotation and one scale, the mirror between the
    north-up projection and the rows-down map, an offset; fitted by least squares.

    `mirror=False` is for a map whose printed numbers also run from east to west (two
    mirrors make a rotation): frame = a * (x + iy) + b."""

    projection: LambertConic
    a: complex
    b: complex
    mirror: bool = True

    @classmethod
    def through(cls, projection: LambertConic, anchors: Mapping[str, tuple[Point, Point]],
                mirror: bool = True) -> Fitted:
        """The fit through `anchors`: name -> (lon/lat, frame point of its hex)."""
        import numpy as np

        rows, rhs = [], []
        for lonlat, frame in anchors.values():
            x, y = projection.forward(*lonlat)
            rows.append([complex(x, -y) if mirror else complex(x, y), 1])
            rhs.append(complex(*frame))
        sol = np.linalg.lstsq(np.array(rows), np.array(rhs), rcond=None)[0]
        return cls(projection, complex(sol[0]), complex(sol[1]), mirror)

    def to_frame(self, lon: float, lat: float) -> Point:
        x, y = self.projection.forward(lon, lat)
        z = self.a * (complex(x, -y) if self.mirror else complex(x, y)) + self.b
        return z.real, z.imag

    def to_lonlat(self, fx: float, fy: float) -> Point:
        w = (complex(fx, fy) - self.b) / self.a
        if self.mirror:
            w = w.conjugate()
        return self.projection.inverse(w.real, w.imag)

    @property
    def km_per_hex(self) -> float:
        return 1 / abs(self.a)

    @property
    def rotation_deg(self) -> float:
        return math.degrees(cmath.phase(self.a))
