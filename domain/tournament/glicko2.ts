/**
 * Glicko-2 (Mark E. Glickman, "Example of the Glicko-2 system", 2013 revision), step by step
 * as the paper numbers them. Pure arithmetic: one rating period in, the new rating out.
 * Fieldpost treats each rated game as its own rating period (see ratings.ts).
 */

/** A player's rating on the familiar Glicko scale. */
export interface Glicko2Rating {
  readonly rating: number;
  readonly deviation: number;
  readonly volatility: number;
}

/** One game of the rating period, from the rated player's side: 1 win, 0.5 draw, 0 loss. */
export interface Glicko2Result {
  readonly opponent: Pick<Glicko2Rating, 'rating' | 'deviation'>;
  readonly score: number;
}

/** New players (the paper's suggestion): 1500, 350, 0.06. */
export const NEW_PLAYER: Glicko2Rating = { rating: 1500, deviation: 350, volatility: 0.06 };
/** The system constant τ, which limits how fast volatility moves; the paper's example uses 0.5. */
export const DEFAULT_TAU = 0.5;
/** A deviation never grows beyond a new player's. */
export const MAX_DEVIATION = 350;
/** Step 1's conversion factor between the Glicko scale and the Glicko-2 scale. */
const SCALE = 173.7178;
/** Step 5's convergence tolerance. */
const EPSILON = 0.000001;

const g = (phi: number): number => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
const expected = (mu: number, muJ: number, phiJ: number): number => 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));

/**
 * Steps 2 to 8 of the paper for one player and one rating period. With no games, only the
 * deviation grows (step 6 with σ unchanged).
 */
export function glicko2Update(player: Glicko2Rating, results: readonly Glicko2Result[], tau: number = DEFAULT_TAU): Glicko2Rating {
  // Step 2: onto the Glicko-2 scale.
  const mu = (player.rating - 1500) / SCALE;
  const phi = player.deviation / SCALE;
  const sigma = player.volatility;
  if (results.length === 0) {
    const phiStar = Math.sqrt(phi * phi + sigma * sigma);
    return { rating: player.rating, deviation: Math.min(MAX_DEVIATION, phiStar * SCALE), volatility: sigma };
  }
  const games = results.map((r) => {
    const muJ = (r.opponent.rating - 1500) / SCALE;
    const phiJ = r.opponent.deviation / SCALE;
    return { gJ: g(phiJ), eJ: expected(mu, muJ, phiJ), s: r.score };
  });
  // Step 3: the estimated variance of the rating from game outcomes alone.
  const v = 1 / games.reduce((sum, { gJ, eJ }) => sum + gJ * gJ * eJ * (1 - eJ), 0);
  // Step 4: the estimated improvement.
  const improvement = games.reduce((sum, { gJ, eJ, s }) => sum + gJ * (s - eJ), 0);
  const delta = v * improvement;
  // Step 5: the new volatility, by the Illinois algorithm.
  const a = Math.log(sigma * sigma);
  const f = (x: number): number => {
    const ex = Math.exp(x);
    const d = phi * phi + v + ex;
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * d * d) - (x - a) / (tau * tau);
  };
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) {
    B = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > EPSILON) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA = fA / 2;
    }
    B = C;
    fB = fC;
  }
  const sigmaNew = Math.exp(A / 2);
  // Step 6: the pre-rating-period deviation.
  const phiStar = Math.sqrt(phi * phi + sigmaNew * sigmaNew);
  // Step 7: the new deviation and rating.
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * improvement;
  // Step 8: back onto the Glicko scale.
  return { rating: SCALE * muNew + 1500, deviation: Math.min(MAX_DEVIATION, SCALE * phiNew), volatility: sigmaNew };
}
