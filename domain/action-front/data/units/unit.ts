// One row of the Unit Value Table, with the flags most units lack left out.
import type { UnitType } from '../units.js';

type Row = Omit<UnitType, 'transport' | 'indirect' | 'infantry'> & Partial<Pick<UnitType, 'transport' | 'indirect' | 'infantry'>>;
export const unit = (r: Row): UnitType => ({ infantry: false, transport: false, indirect: false, ...r });
