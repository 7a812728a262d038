import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from './app/providers.tsx';
import { currentToken } from './lib/auth.ts';
import { setTokenProvider } from './lib/api.ts';

setTokenProvider(currentToken);

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <Providers />
  </StrictMode>,
);
