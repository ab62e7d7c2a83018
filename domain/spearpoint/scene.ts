import type { Region, Lane, Link, Marker, Note, Piece, Scene } from '../kernel/scene.js';
import type { Viewer } from '../kernel/visibility.js';
import type { Side } from '../frontline-general/data/schema.js';
import { SEATS, other, type OrderStep, type State } from './model.js';
import { view } from './view.js';

/**
 * Spearpoint's picture for one viewer, built from `view(state, viewer)` and nothing else, so it
 * can never show more than the view does: both battle areas (air, front, rear) with each unit's
 * Defense, Endurance and damage, the Command cards on units and sides, each side's hand (faces
 * for your own, counts for the other's) and decks, scores, turn and phase, whose move it is, and
 * this turn's declared attacks with how far each has got. The viewer's own side is drawn at the
 * bottom, as if across a table.
 *
 * The state keeps a turn's attacks only until its combat ends (evolve: CombatEnded), so once
 * the draw begins the picture shows their results (damage, losses, scores) but not the attacks.
 */
type View = ReturnType<typeof view>;
type UnitView = View['battleArea'][string]['front'][number];
type SeatView = View['seats'][string];

const SIDE_NAME: Readonly<Record<Side, string>> = { us: 'United States', de: 'Germany' };
const PHASE: Readonly<Record<View['phase'], string>> = {
  muster: 'Muster: picking starting hands',
  commitment: 'Commitment phase',
  declaration: 'Target declaration',
  initiative: 'Initiative tied: each side may discard a card for +1 before the re-roll',
  combat: 'Combat phase',
  draw: 'Draw phase',
  over: 'Game over',
};

export function scene(state: State, viewer: Viewer): Scene {
  const v = view(state, viewer);
  const me: Side | undefined = viewer.kind === 'seat' ? SEATS.find((s) => s === viewer.seat) : undefined;
  const seatOf = (s: Side): SeatView => v.seats[s]!;
  const units = new Map<string, UnitView>();
  for (const side of SEATS) for (const line of ['air', 'front', 'rear'] as const) for (const u of v.battleArea[side]![line]) units.set(u.id, u);

  // This turn's attacks that have fired: the last moves of the combat phase.
  const fired = v.attacks.filter((a) => a.shotsDone > 0);
  const touched = new Set(fired.flatMap((a) => [...a.attackers, a.target]));

  const unitPiece = (u: UnitView, side: Side): Piece => {
    const markers: Marker[] = [];
    // In combat this is the turn's damage; after it, what a Damage card keeps off (001 Damage Resolution).
    if (u.endurance < u.full) markers.push({ label: `${u.full - u.endurance} damage`, tone: 'bad' });
    if (u.damage) markers.push({ label: `Damage card: ${u.damage.title} (${u.damage.effect})`, tone: 'bad' });
    if (u.needsCrew) markers.push({ label: 'No crew: cannot attack', tone: 'bad' });
    if (u.shaken) markers.push({ label: 'Shaken', tone: 'bad' });
    if (u.immobilized) markers.push({ label: 'Immobilized', tone: 'bad' });
    if (u.weaponsLost.length)
      markers.push({ label: `Weapon${u.weaponsLost.length > 1 ? 's' : ''} lost: ${u.weaponsLost.map((w) => w + 1).join(', ')}`, tone: 'bad' });
    for (const c of u.commandCards) markers.push({ label: c.title, tone: 'good' });
    if ('turnsOfFlightLeft' in u && u.turnsOfFlightLeft !== undefined) markers.push({ label: `${u.turnsOfFlightLeft} turn(s) of flight left`, tone: 'info' });
    if (u.capturedFrom !== undefined) markers.push({ label: `Captured from ${SIDE_NAME[u.capturedFrom]}`, tone: 'info' });
    return {
      id: u.id,
      label: u.title,
      side,
      details: [
        `Defense ${u.defense} · Endurance ${u.endurance}/${u.full}`,
        `${u.type} · ${u.cost} pts · half ${u.half}`,
        `${u.id}${u.crew ? ` · crew: ${u.crew.card}` : ''}`,
        ...u.weapons,
      ],
      markers,
      ...(touched.has(u.id) ? { highlight: true } : {}),
    };
  };

  const battleArea = (side: Side): Region => {
    const b = v.battleArea[side]!;
    return {
      kind: 'area',
      id: `battle-${side}`,
      label: `${SIDE_NAME[side]}: battle area${side === me ? ' (yours)' : ''}`,
      side,
      lanes: [
        { label: 'Air', pieces: b.air.map((u) => unitPiece(u, side)) },
        { label: 'Front line', pieces: b.front.map((u) => unitPiece(u, side)) },
        { label: 'Rear line', pieces: b.rear.map((u) => unitPiece(u, side)) },
      ],
    };
  };

  const back = (id: string, label: string, count: number, side: Side): Piece => ({ id, label, side, details: [], markers: [], faceDown: true, count });

  const handArea = (side: Side): Region => {
    const x = seatOf(side);
    const units: Lane = {
      label: 'Units in hand',
      pieces:
        'hand' in x && x.hand
          ? x.hand.map((h) => ({
              id: `hand-${h.id}`,
              label: h.title,
              side,
              details: [`Defense ${h.defense} · Endurance ${h.endurance.full}`, `${h.type} · ${h.cost} pts · half ${h.endurance.half}`, h.id, ...h.weapons],
              markers: [],
            }))
          : [back(`hand-${side}`, 'Unit cards', x.handCount, side)],
    };
    const commands: Lane = {
      label: 'Command cards',
      pieces:
        'commands' in x && x.commands
          ? x.commands.map((c) => ({ id: `command-${c.id}`, label: c.title, side, details: [c.text, c.id], markers: [] }))
          : [back(`commands-${side}`, 'Command cards', x.commandCount, side)],
    };
    const onSide = v.sideEffects.filter((e) => e.seat === side).map((e) => ({ id: `effect-${e.card}`, label: e.title, side, details: [e.card], markers: [] }));
    return {
      kind: 'area',
      id: `hand-${side}`,
      label: `${SIDE_NAME[side]}: hand and decks${side === me ? ' (yours)' : ''}`,
      side,
      lanes: [
        units,
        commands,
        ...(onSide.length ? [{ label: 'In play for the whole side', pieces: onSide }] : []),
        { label: 'Reserves', pieces: [back(`reserves-${side}`, 'Reserves deck', x.reservesCount, side)] },
      ],
    };
  };

  const name = (id: string) => (units.has(id) ? `${units.get(id)!.title} (${id})` : id);
  const links: Link[] = v.attacks.flatMap((a) =>
    a.attackers.map((by) => ({
      from: { piece: by },
      to: { piece: a.target },
      kind: 'attack' as const,
      label: `${a.id}: ${a.status}`,
      ...(a.shotsDone > 0 ? { highlight: true } : {}),
    })),
  );

  const status: string[] = [`${v.situation.title} · turn ${v.turn} of at most ${v.maxTurns} · ${PHASE[v.phase]}`];
  if (v.result)
    status.push(`Result: ${v.result.winners.length ? `won by ${v.result.winners.map((w) => SIDE_NAME[w]).join(' and ')}` : 'a draw'} (${v.result.reason})`);
  if (v.initiative) status.push(`Initiative: ${SIDE_NAME[v.initiative]}`);
  for (const p of v.pending) {
    const side = SEATS.find((s) => s === p.seat);
    status.push(`${side === me ? 'Your move' : `Waiting for ${side ? SIDE_NAME[side] : p.seat}`}: ${p.prompt}`);
  }
  for (const side of SEATS) {
    const x = seatOf(side);
    if ((v.phase === 'commitment' || v.phase === 'declaration') && x.sealed) status.push(`${SIDE_NAME[side]} has sealed its order`);
  }

  const notes: Note[] = [
    ...v.attacks.map((a) => ({
      text: `Attack ${a.id}: ${a.closeAssault ? 'close assault by ' : ''}${a.attackers.map(name).join(' + ')} → ${name(a.target)}: ${a.status}${a.shotsDone ? `, ${a.shotsDone} shot${a.shotsDone > 1 ? 's' : ''} fired` : ''}`,
      ...(a.shotsDone > 0 ? { highlight: true } : {}),
    })),
    ...(v.friendlyFire
      ? [
          {
            text: `Friendly fire in ${v.friendlyFire.attackId}: ${SIDE_NAME[v.friendlyFire.chooser]} chooses which of ${v.friendlyFire.candidates.map(name).join(', ')} is hit`,
            highlight: true,
          },
        ]
      : []),
    ...(me ? orderNotes(seatOf(me), name) : []),
    ...SEATS.map((side) => lossNote(side, v.removed)),
    {
      text: `Command deck ${v.commandDeckCount} (discards ${v.commandDiscard.length}) · Damage deck ${v.damageDeckCount} (discards ${v.damageDiscard.length})`,
    },
  ];

  const far = me ? other(me) : 'de';
  const near = other(far);
  return {
    title: `Spearpoint 1943 · ${viewer.kind === 'seat' ? `seen by ${me ? SIDE_NAME[me] : viewer.seat}` : viewer.kind === 'auditor' ? 'everything open' : 'spectator'}`,
    status,
    sides: SEATS.map((seat) => ({ seat, name: SIDE_NAME[seat] })),
    scores: SEATS.map((seat) => {
      const x = seatOf(seat);
      return { seat, label: SIDE_NAME[seat], value: `${x.score} VP${x.overrunTurns ? ` · overrun ${x.overrunTurns}` : ''}` };
    }),
    rows: [[battleArea(far)], [battleArea(near)], [handArea(near), handArea(far)]],
    links,
    notes,
  };
}

/** The viewer's own order while it is still open: the other side never sees it before the reveal. */
function orderNotes(x: SeatView, name: (id: string) => string): Note[] {
  if (!('order' in x) || !x.order?.length) return [];
  return [{ text: `Your order so far (not sealed): ${x.order.map((s) => stepText(s, name)).join('; ')}` }];
}

function stepText(s: OrderStep, name: (id: string) => string): string {
  switch (s.kind) {
    case 'pick':
      return `pick ${s.card} for the starting hand`;
    case 'commit':
      return `commit ${s.unit}${s.crew ? ` with crew ${s.crew}` : ''} to the ${s.line} line`;
    case 'replaceCrew':
      return `crew ${s.crew} into ${name(s.unit)}`;
    case 'moveCrew':
      return `move crew from ${name(s.from)} to ${name(s.to)}`;
    case 'moveLine':
      return `move ${name(s.unit)} to the ${s.line} line`;
    case 'card':
      return `play ${s.card}${s.target ? ` on ${name(s.target)}` : ''}`;
    case 'attack':
      return `${name(s.attacker)} attacks ${name(s.target)}`;
    case 'closeAssault':
      return `${name(s.attacker)} joins a close assault on ${name(s.target)}`;
    case 'initiativeBoost':
      return `discard ${s.card} for +1 Initiative`;
  }
}

function lossNote(side: Side, removed: View['removed']): Note {
  const lost = removed.filter((r) => r.owner === side);
  const points = lost.reduce((sum, r) => sum + r.points, 0);
  return { text: `${SIDE_NAME[side]} has lost ${lost.length} card${lost.length === 1 ? '' : 's'} (${points} VP to the other side)` };
}
