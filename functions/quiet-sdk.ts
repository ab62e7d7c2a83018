import { quietSdkNodeWarning } from './node-version.js';

// Imported first by entry points (npm start, rebuild-read-models, bench), before the AWS SDK loads.
quietSdkNodeWarning();
