import 'slowstart/element';
import * as slowstart from 'slowstart';
import { showApi } from '../show-api.js';

showApi(slowstart);
